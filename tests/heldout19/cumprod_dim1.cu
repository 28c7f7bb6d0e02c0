// out[b][i][j] = product over k <= i of x[b][k][j]: torch.cumprod(x, dim=1) of a batch_size x dim1 x dim2 tensor (KernelBench level 1, 90_cumprod, over the middle dim of a 3-D input); one thread per (b, j) column, the flat thread index split with / and %, walking dim1 with a stride of dim2.
/* @optiml
   sizes:  batch_size=16 dim1=1024 dim2=2048   # 2^25 floats: 128 MiB in, 128 MiB out
   check:  batch_size=1 dim1=1 dim2=1; batch_size=2 dim1=3 dim2=7; batch_size=3 dim1=1000 dim2=2; batch_size=1 dim1=5 dim2=257; batch_size=4 dim1=64 dim2=33; batch_size=1 dim1=1 dim2=100
   x:      in  float[batch_size*dim1*dim2] uniform(0.9,1.1)   # products stay near 1 over long runs
   out:    out float[batch_size*dim1*dim2]
   launch: grid=cdiv(batch_size*dim2,256) block=256
   flops:  batch_size*dim1*dim2
   tol:    1e-4
*/
__global__ void cumprod_dim1_kernel(const float* __restrict__ x, float* __restrict__ out,
                                    int batch_size, int dim1, int dim2)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= batch_size * dim2)
        return;
    int b = tid / dim2;
    int j = tid % dim2;

    long offset = (long)b * dim1 * dim2 + j;
    float prod = 1.0f;
    for (int i = 0; i < dim1; ++i) {
        prod *= x[offset];
        out[offset] = prod;
        offset += dim2;
    }
}
