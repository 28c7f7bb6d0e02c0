// y[i] = mask[i] ? x[i] * scale : 0 with scale = 1/(1-p): a precomputed dropout keep-mask (one byte per element, 0 or 1) applied to n halves, fp32 math.
#include <cuda_fp16.h>

/* @optiml
   sizes:  n=67108864                   # 2^26: 128 MiB of halves in, 64 MiB of mask, 128 MiB out
   check:  n=1; n=255; n=1000003
   x:      in  half[n]
   mask:   in  unsigned char[n] range(0,2)
   y:      out half[n]
   scale:  1.25
   launch: grid=cdiv(n,512) block=512
   flops:  n
   tol:    1e-2
*/
__global__ void dropout_apply(const __half* x, const unsigned char* mask, __half* y, float scale, int n)
{
    int idx = threadIdx.x + blockIdx.x * blockDim.x;
    if (idx < n)
        y[idx] = __ldg(&mask[idx]) ? __float2half(__half2float(__ldg(&x[idx])) * scale) : __float2half(0.0f);
}
