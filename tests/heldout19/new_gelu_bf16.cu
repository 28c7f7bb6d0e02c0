// y = 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3))): MinGPT's NewGELU (KernelBench level 1, 88_MinGPTNewGelu) on a bfloat16 batch_size x dim tensor, fp32 math; one thread per element, a __device__ helper and #define constants.
#include <cuda_bf16.h>

#define SQRT_2_OVER_PI 0.7978845608028654f
#define GELU_COEF 0.044715f

__device__ __forceinline__ float new_gelu(float x)
{
    return 0.5f * x * (1.0f + tanhf(SQRT_2_OVER_PI * (x + GELU_COEF * powf(x, 3.0f))));
}

/* @optiml
   sizes:  batch_size=8192 dim=8192     # 2^26 bf16: 128 MiB in, 128 MiB out
   check:  batch_size=1 dim=1; batch_size=3 dim=7; batch_size=16 dim=1000; batch_size=129 dim=2; batch_size=2 dim=2000
   x:      in  __nv_bfloat16[batch_size*dim] normal(0,2)
   y:      out __nv_bfloat16[batch_size*dim]
   launch: grid=cdiv(batch_size*dim,256) block=256
   flops:  10*batch_size*dim
   tol:    1e-2                         # bf16 output
*/
__global__ void new_gelu_bf16(const __nv_bfloat16* x, __nv_bfloat16* y, int batch_size, int dim)
{
    size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t n = (size_t)batch_size * dim;
    if (idx >= n)
        return;
    y[idx] = __float2bfloat16(new_gelu(__bfloat162float(x[idx])));
}
