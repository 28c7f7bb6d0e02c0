// out = half(float(x) + alpha * float(res)), element-wise over len fp16 values (scaled residual add).
#include <cuda_fp16.h>

/* @optiml
   sizes:  len=16777216
   x:      in __half[len]
   res:    in __half[len]
   out:    out __half[len]
   alpha:  0.5
   launch: grid=cdiv(len,256) block=256
*/
__global__ void residual_add_fp16(const __half* x, const __half* res, __half* out, float alpha, int len)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i >= len)
        return;
    float a = __half2float(x[i]);
    float b = __half2float(res[i]);
    out[i] = __float2half(a + alpha * b);
}
