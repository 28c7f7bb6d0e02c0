// y[r] = x[r] / max(||x[r]||_2, 1e-12): F.normalize(x, p=2, dim=1) (KernelBench level 1's L2Norm) on 256 rows of 65536 features; one block of 512 threads per row, a strided sum of squares reduced in shared memory with interleaved addressing (s doubling, `tid % (2 * s) == 0`), then each thread divides its strided elements by the clamped norm.
/* @optiml
   sizes:   rows=256 D=65536            # x 64 MiB in, y 64 MiB out
   check:   rows=1 D=1; rows=2 D=7; rows=3 D=511; rows=2 D=1000; rows=1 D=40000; rows=4 D=4099
   x:       in  float[rows*D]
   y:       out float[rows*D]
   launch:  grid=rows block=512
   flops:   3*rows*D
   tol:     1e-4
*/
__global__ void l2_normalize_interleaved(const float* __restrict__ x, float* __restrict__ y, unsigned int rows,
                                         unsigned int D)
{
    __shared__ float sdata[512];
    unsigned int tid = threadIdx.x;
    const float* xr = x + (size_t)blockIdx.x * D;
    float* yr = y + (size_t)blockIdx.x * D;

    float sum = 0.0f;
    for (unsigned int i = tid; i < D; i += blockDim.x)
        sum += xr[i] * xr[i];
    sdata[tid] = sum;
    __syncthreads();

    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }

    float norm = fmaxf(sqrtf(sdata[0]), 1e-12f);
    for (unsigned int i = tid; i < D; i += blockDim.x)
        yr[i] = xr[i] / norm;
}
