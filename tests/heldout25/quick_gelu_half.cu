// y = x * sigmoid(1.702 * x): CLIP's QuickGELU (the `quick_gelu` activation of OpenAI CLIP / open_clip and Hugging Face's CLIPMLP, `x * torch.sigmoid(1.702 * x)`) on 32 million fp16 activations; one thread per element, the activation in fp32 by a plain __device__ helper called once per element, __half in and out through __half2float / __float2half, an unbraced early return.
#include <cuda_fp16.h>

__device__ float quick_gelu(float x)
{
    return x / (1.0f + expf(-1.702f * x));
}

/* @optiml
   sizes:   n=33554432                  # x 64 MiB in, y 64 MiB out (fp16)
   check:   n=1; n=7; n=255; n=256; n=257; n=1000; n=65537
   x:       in  __half[n] uniform(-6,6)
   y:       out __half[n]
   launch:  grid=cdiv(n,256) block=256
   flops:   5*n
   tol:     1e-2
*/
__global__ void quick_gelu_half(const __half* x, __half* y, int n)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= n) return;

    float v = __half2float(x[idx]);
    y[idx] = __float2half(quick_gelu(v));
}
