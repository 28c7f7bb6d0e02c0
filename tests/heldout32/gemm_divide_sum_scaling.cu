// y[b] = scaling_factor * sum_j (sum_k x[b][k] * weight[j][k]) / 2: KernelBench level 2's Gemm_Divide_Sum_Scaling (`x = torch.matmul(x, self.weight.T); x = x / 2; x = torch.sum(x, dim=1, keepdim=True); x = x * self.scaling_factor`, weight `torch.randn(hidden_size, input_size)`, scaling_factor 1.5) at batch_size 1024, input_size 8192, hidden_size 8192, fp32; one thread per (b, j) on a 2-D grid of 256 threads (hidden units on x, blockIdx.y = b), early return, the KernelBench names, plain `int` offsets, one atomicAdd of the divided and scaled dot product per thread into a zero-initialised [batch, 1] output.

/* @optiml
   sizes:   batch_size=1024 input_size=8192 hidden_size=8192   # x 32 MiB in, weight 256 MiB in, y 4 KiB; 137.4 GFLOP
   check:   batch_size=1 input_size=1 hidden_size=1; batch_size=2 input_size=3 hidden_size=7; batch_size=3 input_size=64 hidden_size=257; batch_size=1 input_size=100 hidden_size=600; batch_size=5 input_size=17 hidden_size=33; batch_size=4 input_size=1 hidden_size=1000
   x:               in  float[batch_size*input_size] normal(0,1)
   weight:          in  float[hidden_size*input_size] normal(0,1)
   y:               inout float[batch_size] const(0)
   scaling_factor:  1.5
   launch:          grid=(cdiv(hidden_size,256),batch_size) block=256
   flops:           2*batch_size*input_size*hidden_size + 3*batch_size*hidden_size
   tol:             1e-4
*/
__global__ void gemm_divide_sum_scaling(const float* x, const float* weight, float* y, float scaling_factor,
                                        int batch_size, int input_size, int hidden_size)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int b = blockIdx.y;
    if (j >= hidden_size) return;

    float dot = 0.0f;
    for (int k = 0; k < input_size; k++)
        dot += x[b * input_size + k] * weight[j * input_size + k];
    atomicAdd(&y[b], dot / 2.0f * scaling_factor);
}
