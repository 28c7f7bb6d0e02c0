// h = bf16(x * rsqrt(mean(x^2) + eps)), y = bf16(weight * h) per row: Hugging Face LlamaRMSNorm.forward on bfloat16 hidden states with a bfloat16 weight (variance in fp32, normalized states cast back to the input dtype before the weight multiplies them); one thread per row, two passes.
#include <cuda_bf16.h>

/* @optiml
   sizes:  rows=16384 hidden=4096       # 2^26 bf16: 128 MiB in, 128 MiB out, weight 8 KiB
   check:  rows=1 hidden=1; rows=3 hidden=7; rows=17 hidden=1000; rows=2 hidden=4099; rows=130 hidden=2; rows=5 hidden=256
   x:      in  __nv_bfloat16[rows*hidden]
   weight: in  __nv_bfloat16[hidden] uniform(0.5,1.5)
   y:      out __nv_bfloat16[rows*hidden]
   eps:    1e-6
   launch: grid=cdiv(rows,128) block=128
   flops:  5*rows*hidden
   tol:    1e-2                         # bf16 output
*/
__global__ void llama_rmsnorm_bf16(const __nv_bfloat16* __restrict__ x, const __nv_bfloat16* __restrict__ weight,
                                   __nv_bfloat16* __restrict__ y, float eps, int rows, int hidden)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;

    const __nv_bfloat16* xr = x + (size_t)row * hidden;
    __nv_bfloat16* yr = y + (size_t)row * hidden;

    float sumsq = 0.0f;
    for (int i = 0; i < hidden; i++) {
        float v = __bfloat162float(xr[i]);
        sumsq += v * v;
    }
    float rstd = rsqrtf(sumsq / hidden + eps);

    for (int i = 0; i < hidden; i++) {
        __nv_bfloat16 h = __float2bfloat16(__bfloat162float(xr[i]) * rstd);
        yr[i] = __float2bfloat16(__bfloat162float(weight[i]) * __bfloat162float(h));
    }
}
