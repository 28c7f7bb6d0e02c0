// out[b][i] += (1 / dim2) * sum over j of x[b][i][j]: torch.mean(x, dim=2) of a batch_size x dim1 x dim2 tensor (KernelBench level 1, 48_Mean_reduction_over_a_dimension, reducing the last dim); out must start at 0; one block of 256 threads per (b, i) row, each thread striding the row and adding its share with one atomicAdd.
/* @optiml
   sizes:  batch_size=16 dim1=4096 dim2=1024   # 2^26 floats: 256 MiB in, 256 KiB out
   check:  batch_size=1 dim1=1 dim2=1; batch_size=2 dim1=3 dim2=7; batch_size=3 dim1=5 dim2=1000; batch_size=1 dim1=100 dim2=2; batch_size=2 dim1=17 dim2=257; batch_size=1 dim1=2 dim2=4099
   x:      in    float[batch_size*dim1*dim2]
   out:    inout float[batch_size*dim1] const(0)   # accumulator: zeroed before each run
   launch: grid=batch_size*dim1 block=256
   flops:  batch_size*dim1*dim2
   tol:    1e-4
*/
__global__ void mean_dim2_kernel(const float* x, float* out, int batch_size, int dim1, int dim2)
{
    int row = blockIdx.x;                     // b * dim1 + i
    if (row >= batch_size * dim1)
        return;

    const float* xr = x + (long)row * dim2;
    float partial = 0.0f;
    for (int j = threadIdx.x; j < dim2; j += blockDim.x)
        partial += xr[j];
    atomicAdd(&out[row], partial / dim2);
}
