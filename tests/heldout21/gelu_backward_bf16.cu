// dx = dy * (Phi(x) + x * phi(x)), Phi / phi the standard normal CDF / density: the backward of the exact (erf) GELU, F.gelu(x) with approximate="none" (ATen's GeluBackward: gelu_backward(grad, self)), on bfloat16 activations and gradients with fp32 math; an int64_t grid-stride loop over at most 4096 blocks of 256, a device helper for the derivative.
#include <cuda_bf16.h>
#include <cstdint>

#define M_SQRT1_2_F 0.70710678118654752f
#define INV_SQRT_2PI 0.39894228040143268f

__device__ float gelu_erf_grad(float x)
{
    float cdf = 0.5f * (1.0f + erff(x * M_SQRT1_2_F));
    float pdf = INV_SQRT_2PI * expf(-0.5f * x * x);
    return cdf + x * pdf;
}

/* @optiml
   sizes:  n=67108864                   # 2^26 bf16 each: dy 128 MiB, x 128 MiB in, dx 128 MiB out
   check:  n=1; n=7; n=1000; n=4099; n=65537; n=300007; n=2
   dy:     in  __nv_bfloat16[n]
   x:      in  __nv_bfloat16[n] normal(0,2)
   dx:     out __nv_bfloat16[n]
   launch: grid=min(cdiv(n,256),4096) block=256
   flops:  14*n
   tol:    1e-2                         # bf16 output
*/
__global__ void gelu_backward_bf16(const __nv_bfloat16* dy, const __nv_bfloat16* x, __nv_bfloat16* dx, int64_t n)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        float g = __bfloat162float(dy[i]);
        float v = __bfloat162float(x[i]);
        dx[i] = __float2bfloat16(g * gelu_erf_grad(v));
    }
}
