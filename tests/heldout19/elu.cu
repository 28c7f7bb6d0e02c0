// out[b][j] = x > 0 ? x : alpha * (exp(x) - 1) with x = input[b][j]: the ELU activation with its alpha (F.elu(x, alpha=1.0), KernelBench level 1, 31_ELU) over a batch_size x dim tensor; one thread per element, a 2-D grid with the row on y.
/* @optiml
   sizes:  batch_size=4096 dim=8192     # 2^25 floats: 128 MiB in, 128 MiB out
   check:  batch_size=1 dim=1; batch_size=3 dim=7; batch_size=16 dim=1000; batch_size=100 dim=2; batch_size=5 dim=300
   input:  in  float[batch_size*dim] normal(0,2)
   output: out float[batch_size*dim]
   alpha:  1.0
   launch: grid=(cdiv(dim,256),batch_size) block=256
   flops:  3*batch_size*dim
*/
__global__ void elu_forward(const float* __restrict__ input, float* __restrict__ output, float alpha,
                            int batch_size, int dim)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int b = blockIdx.y;
    if (j >= dim || b >= batch_size)
        return;

    const long idx = (long)b * dim + j;
    const float v = input[idx];
    output[idx] = v > 0.0f ? v : alpha * (expf(v) - 1.0f);
}
