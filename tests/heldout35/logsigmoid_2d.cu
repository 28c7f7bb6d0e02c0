// y = log(sigmoid(x)) = min(x, 0) - log(1 + exp(-|x|)): `F.logsigmoid(x)` (nn.LogSigmoid, as a reward model's or a word2vec negative-sampling loss applies it to scores) on a [8192, 4096] fp32 matrix `uniform(-12,12)`; an assistant's 2-D elementwise kernel: `dim3 block(16, 16)` over rows and columns, `blockIdx.y * blockDim.y + threadIdx.y` for the row, the combined check `if (row < rows && col < cols)`, a `row * cols + col` index, the numerically stable form with an `if` on the sign compared against a `double` literal `0.0`, `expf` and `log1pf`.

/* @optiml
   sizes:   rows=8192 cols=4096   # x 128 MiB in, y 128 MiB out; 0.17 GFLOP
   check:   rows=1 cols=1; rows=3 cols=5; rows=17 cols=33; rows=100 cols=1; rows=1 cols=300; rows=40 cols=16
   x:       in  float[rows*cols] uniform(-12,12)
   y:       out float[rows*cols]
   launch:  grid=(cdiv(cols,16),cdiv(rows,16)) block=(16,16)
   flops:   5*rows*cols
   tol:     1e-5
*/
__global__ void logsigmoid_2d(const float* x, float* y, int rows, int cols)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;

    if (row < rows && col < cols) {
        int idx = row * cols + col;
        float v = x[idx];
        float result;
        if (v < 0.0)
            result = v - log1pf(expf(v));
        else
            result = -log1pf(expf(-v));
        y[idx] = result;
    }
}
