// out[i] = residual[i] + mask[i] * (x[i] + bias[i % H]) * scale, scale = 1 / (1 - p): the fused bias + dropout + residual add of a transformer block (Megatron-style bias_dropout_add, training mode) with a given 0/1 keep-mask, on bfloat16 activations of N x H, fp32 math; Caffe2's CUDA_1D_KERNEL_LOOP grid-stride macro, loads through __ldg.
#include <cstdint>
#include <cuda_bf16.h>

#define CUDA_1D_KERNEL_LOOP(i, n) \
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += (int64_t)blockDim.x * gridDim.x)

/* @optiml
   sizes:    N=16384 H=2048             # 2^25 elements: x, residual 64 MiB each, mask 32 MiB in, 64 MiB out
   check:    N=1 H=1; N=3 H=7; N=17 H=1000; N=100 H=2; N=2 H=4097
   x:        in  __nv_bfloat16[N*H]
   bias:     in  __nv_bfloat16[H]
   residual: in  __nv_bfloat16[N*H]
   mask:     in  uint8_t[N*H] range(0,2)
   out:      out __nv_bfloat16[N*H]
   scale:    1.25                         # p = 0.2
   n:        N*H
   launch:   grid=min(cdiv(N*H,256),8192) block=256
   flops:    4*N*H
   tol:      1e-2                         # bf16 output
*/
extern "C" __global__ void bias_dropout_add_bf16(const __nv_bfloat16* __restrict__ x, const __nv_bfloat16* __restrict__ bias,
                                                 const __nv_bfloat16* __restrict__ residual,
                                                 const uint8_t* __restrict__ mask, __nv_bfloat16* __restrict__ out,
                                                 float scale, int64_t n, int H)
{
    CUDA_1D_KERNEL_LOOP(i, n) {
        float v = __bfloat162float(__ldg(x + i)) + __bfloat162float(__ldg(bias + i % H));
        v = __ldg(mask + i) ? v * scale : 0.0f;
        out[i] = __float2bfloat16(__bfloat162float(__ldg(residual + i)) + v);
    }
}
