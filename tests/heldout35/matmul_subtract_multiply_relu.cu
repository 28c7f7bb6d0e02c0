// y[b][j] = relu((x[b] . W[j] + bias[j] - subtract_value) * multiply_value) with subtract_value 0.05 and multiply_value 1.5: KernelBench level 2's Matmul_Subtract_Multiply_ReLU (`x = self.linear(x); x = x - self.subtract_value; x = x * self.multiply_value; x = torch.relu(x)`) with nn.Linear(4096, 4096) at batch 2048 fp32 (the subtracted constant made 0.05 and the weights `uniform(-0.05,0.05)` so that the ReLU keeps part of the outputs at the check sizes as at the benchmark size); the textbook shared-memory tiled matmul an assistant writes when asked for a "faster" version: `#define TILE_WIDTH 16`, two `__shared__` 16 x 16 tiles (x and W, the W tile read along its rows so that it is stored transposed), zero-padded tile loads with ternaries, two `__syncthreads()` a step, a tile-count loop with `(K + TILE_WIDTH - 1) / TILE_WIDTH`, the epilogue under `if (row < batch_size && col < out_features)`, `fmaxf` for the ReLU, KernelBench's names.

#define TILE_WIDTH 16

/* @optiml
   sizes:   batch_size=2048 in_features=4096 out_features=4096   # x 32 MiB in, W 64 MiB in, bias 16 KiB in, y 32 MiB out; 68.7 GFLOP
   check:   batch_size=1 in_features=1 out_features=1; batch_size=3 in_features=7 out_features=5; batch_size=17 in_features=33 out_features=19; batch_size=2 in_features=100 out_features=129; batch_size=40 in_features=16 out_features=16; batch_size=5 in_features=300 out_features=33
   x:               in  float[batch_size*in_features]
   W:               in  float[out_features*in_features] uniform(-0.05,0.05)
   bias:            in  float[out_features] uniform(-0.05,0.05)
   y:               out float[batch_size*out_features]
   subtract_value:  0.05
   multiply_value:  1.5
   launch:          grid=(cdiv(out_features,16),cdiv(batch_size,16)) block=(16,16)
   flops:           2*batch_size*in_features*out_features + 4*batch_size*out_features
   tol:             1e-4
*/
__global__ void matmul_subtract_multiply_relu(const float* x, const float* W, const float* bias, float* y,
                                              float subtract_value, float multiply_value, int batch_size,
                                              int in_features, int out_features)
{
    __shared__ float xs[TILE_WIDTH][TILE_WIDTH];
    __shared__ float ws[TILE_WIDTH][TILE_WIDTH];

    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int row = blockIdx.y * TILE_WIDTH + ty;
    int col = blockIdx.x * TILE_WIDTH + tx;
    int wrow = blockIdx.x * TILE_WIDTH + ty;   // the W row this thread loads

    float sum = 0.0f;
    int numTiles = (in_features + TILE_WIDTH - 1) / TILE_WIDTH;
    for (int t = 0; t < numTiles; t++) {
        int k = t * TILE_WIDTH + tx;
        xs[ty][tx] = (row < batch_size && k < in_features) ? x[row * in_features + k] : 0.0f;
        ws[tx][ty] = (wrow < out_features && k < in_features) ? W[wrow * in_features + k] : 0.0f;
        __syncthreads();

        for (int i = 0; i < TILE_WIDTH; i++) {
            sum += xs[ty][i] * ws[i][tx];
        }
        __syncthreads();
    }

    if (row < batch_size && col < out_features) {
        float v = sum + bias[col];
        v = (v - subtract_value) * multiply_value;
        y[row * out_features + col] = fmaxf(v, 0.0f);
    }
}
