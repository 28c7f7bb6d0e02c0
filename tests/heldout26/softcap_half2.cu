// y = cap * tanh(x / cap), cap = 30: Gemma 2's final-logit soft-capping (Hugging Face Gemma2ForCausalLM, `logits = torch.tanh(logits / cap) * cap` with final_logit_softcapping 30.0) on 32 million fp16 logits; half2 loads and stores through reinterpret_cast, one thread per pair, the math in fp32 by a __device__ __forceinline__ helper called twice, __half22float2 / __floats2half2_rn, the odd last element done alone by the thread one past the last pair.
#include <cuda_fp16.h>

__device__ __forceinline__ float softcap(float v, float cap)
{
    return cap * tanhf(v / cap);
}

/* @optiml
   sizes:   n=33554431                  # x 64 MiB in, y 64 MiB out (fp16)
   check:   n=1; n=2; n=3; n=511; n=512; n=513; n=1001; n=65537
   x:       in  __half[n] normal(0,30)
   y:       out __half[n]
   cap:     30.0
   launch:  grid=cdiv(n/2+1,256) block=256
   flops:   4*n
   tol:     1e-3
*/
__global__ void softcap_half2(const __half* x, __half* y, float cap, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int n2 = n / 2;

    if (i < n2) {
        float2 v = __half22float2(reinterpret_cast<const __half2*>(x)[i]);
        reinterpret_cast<__half2*>(y)[i] = __floats2half2_rn(softcap(v.x, cap), softcap(v.y, cap));
    } else if (i == n2 && (n & 1)) {
        y[n - 1] = __float2half(softcap(__half2float(x[n - 1]), cap));
    }
}
