// y[r][j] = x[r][j] / sum_k |x[r][k]|: the L1 normalization of KernelBench level 1's L1Norm (x / torch.sum(torch.abs(x), dim=1, keepdim=True)) on 8 rows of two million elements; one block of 128 threads per row, a strided sum of absolute values reduced in shared memory, then each thread divides its strided elements.
#define BLOCK 128

/* @optiml
   sizes:   rows=8 D=2097152            # x 64 MiB in, y 64 MiB out
   check:   rows=1 D=1; rows=2 D=7; rows=3 D=129; rows=8 D=1000; rows=1 D=40000; rows=4 D=4099
   x:       in  float[rows*D]
   y:       out float[rows*D]
   launch:  grid=rows block=128
   flops:   3*rows*D
   tol:     1e-4
*/
__global__ void l1_normalize(const float* __restrict__ x, float* __restrict__ y, int rows, int D)
{
    __shared__ float sums[BLOCK];
    unsigned int tid = threadIdx.x;
    const float* xr = x + (long)blockIdx.x * D;
    float* yr = y + (long)blockIdx.x * D;

    float acc = 0.0f;
    for (int j = tid; j < D; j += BLOCK)
        acc += fabsf(xr[j]);
    sums[tid] = acc;
    __syncthreads();

    for (unsigned int s = BLOCK / 2; s >= 1; s >>= 1) {
        if (tid < s) {
            sums[tid] = sums[tid] + sums[tid + s];
        }
        __syncthreads();
    }
    float total = sums[0];

    for (int j = tid; j < D; j += BLOCK)
        yr[j] = xr[j] / total;
}
