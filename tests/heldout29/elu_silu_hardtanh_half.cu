// y = hardtanh(silu(elu(x)), -0.2, 0.8), elu(v) = v > 0 ? v : e^v - 1, silu(v) = v / (1 + e^-v): an activation chain (`F.hardtanh(F.silu(F.elu(x)), -0.2, 0.8)`, KernelBench level 1's ELU, Swish and HardTanh in a row) on float16 activations [128, 4096, 64] (33.5M elements, x uniform(-4, 4)), computed in fp32 and rounded to half once; an `unsigned int` grid-stride loop capped at 8192 blocks of 256, a `__device__ __forceinline__` helper per activation, `__half2float` / `__float2half`.
#include <cuda_fp16.h>

__device__ __forceinline__ float elu1(float v) { return v > 0.0f ? v : expf(v) - 1.0f; }
__device__ __forceinline__ float silu(float v) { return v / (1.0f + expf(-v)); }
__device__ __forceinline__ float hardtanh(float v, float lo, float hi) { return fminf(fmaxf(v, lo), hi); }

/* @optiml
   sizes:   n=33554432   # x 64 MiB in, y 64 MiB out
   check:   n=1; n=2; n=255; n=257; n=1001; n=65537; n=2097153
   x:       in  __half[n] uniform(-4,4)
   y:       out __half[n]
   launch:  grid=min(cdiv(n,256),8192) block=256
   tol:     2e-3
*/
__global__ void elu_silu_hardtanh_half(const __half* x, __half* y, unsigned int n)
{
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float v = __half2float(x[i]);
        y[i] = __float2half(hardtanh(silu(elu1(v)), -0.2f, 0.8f));
    }
}
