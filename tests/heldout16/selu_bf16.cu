// y[i] = SCALE * (x[i] > 0 ? x[i] : ALPHA * (exp(x[i]) - 1)): the SELU activation (torch.selu) on n bfloat16 values, fp32 math, a grid-stride loop.
#include <cuda_bf16.h>

#define SELU_ALPHA 1.6732632423543772f
#define SELU_SCALE 1.0507009873554805f

__device__ __forceinline__ float selu_f(float v)
{
    return v > 0.0f ? SELU_SCALE * v : SELU_SCALE * SELU_ALPHA * (expf(v) - 1.0f);
}

/* @optiml
   sizes:  n=67108864                   # 2^26 bf16: 128 MiB in, 128 MiB out
   check:  n=1; n=255; n=1000003
   x:      in  __nv_bfloat16[n] normal(0,2)
   y:      out __nv_bfloat16[n]
   launch: grid=min(cdiv(n,256),4096) block=256
   flops:  4*n
   tol:    1e-2                         # bf16 output
*/
__global__ void selu_bf16(const __nv_bfloat16* x, __nv_bfloat16* y, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        y[i] = __float2bfloat16(selu_f(__bfloat162float(x[i])));
}
