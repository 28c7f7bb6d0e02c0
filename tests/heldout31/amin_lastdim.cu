// y[b][i] = min_j x[b][i][j]: `torch.min(x, dim=2).values` (KernelBench level 1's min reduction over a dimension, here the last one) on [32, 1024, 2048] fp32; one block per (b, i) row, a `template <int BLOCK>` kernel instantiated for 256 threads with the block size as a compile-time constant, each thread folding a strided slice of the row with fminf from +inf (`__int_as_float(0x7f800000)`), then a `__shared__` tree, `long long` row offset, __restrict__.

/* @optiml
   sizes:   B=32 D1=1024 D2=2048   # x 256 MiB in, y 128 KiB out; 67 MFLOP (compares)
   check:   B=1 D1=1 D2=1; B=2 D1=3 D2=7; B=1 D1=5 D2=257; B=3 D1=2 D2=1000; B=1 D1=1 D2=513; B=2 D1=7 D2=33; B=1 D1=3 D2=2048
   template: BLOCK=256
   x:       in  float[B*D1*D2]
   y:       out float[B*D1]
   launch:  grid=B*D1 block=BLOCK
   flops:   B*D1*D2
   tol:     1e-6
*/
template <int BLOCK>
__global__ void amin_lastdim(const float* __restrict__ x, float* __restrict__ y, int B, int D1, int D2)
{
    __shared__ float smin[BLOCK];
    const long long r = blockIdx.x;                 // b * D1 + i
    const float* row = x + r * D2;

    float m = __int_as_float(0x7f800000);
    for (int j = threadIdx.x; j < D2; j += BLOCK)
        m = fminf(m, row[j]);
    smin[threadIdx.x] = m;
    __syncthreads();

    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            smin[threadIdx.x] = fminf(smin[threadIdx.x], smin[threadIdx.x + s]);
        __syncthreads();
    }
    if (threadIdx.x == 0)
        y[r] = smin[0];
}

template __global__ void amin_lastdim<256>(const float*, float*, int, int, int);
