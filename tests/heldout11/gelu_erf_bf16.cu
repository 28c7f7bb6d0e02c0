// y[i] = 0.5 * x[i] * (1 + erf(x[i] / sqrt(2))): the exact (erf) GELU over n bf16 values, fp32 math.
#include <cuda_bf16.h>

#define INV_SQRT2 0.70710678118654752f

/* @optiml
   sizes:  n=67108864                   # 2^26 bf16: 128 MiB in, 128 MiB out
   check:  n=1; n=255; n=1000003
   x:      in  __nv_bfloat16[n]
   y:      out __nv_bfloat16[n]
   launch: grid=cdiv(n,256) block=256
   flops:  8*n
   tol:    1e-2
*/
extern "C" __global__ void gelu_erf_bf16(const __nv_bfloat16* __restrict__ x, __nv_bfloat16* __restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = __bfloat162float(x[i]);
    y[i] = __float2bfloat16(0.5f * v * (1.0f + erff(v * INV_SQRT2)));
}
