// out[t,h] = silu(xg[t,h]) * xg[t,hidden+h] with silu(v) = v / (1 + exp(-v)); xg is tokens x (2*hidden) bf16, out is tokens x hidden bf16.
#include <cuda_bf16.h>

/* @optiml
   sizes:  tokens=4096 hidden=4096
   xg:     in __nv_bfloat16[2*tokens*hidden]
   out:    out __nv_bfloat16[tokens*hidden]
   launch: grid=cdiv(tokens*hidden,256) block=256
*/
__global__ void swiglu_bf16(const __nv_bfloat16* xg, __nv_bfloat16* out, int tokens, int hidden)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < (unsigned int)(tokens * hidden)) {
        unsigned int t = i / hidden;
        unsigned int h = i % hidden;
        float g = __bfloat162float(xg[t * 2 * hidden + h]);
        float u = __bfloat162float(xg[t * 2 * hidden + hidden + h]);
        float s = g / (1.0f + __expf(-g));
        out[i] = __float2bfloat16(s * u);
    }
}
