// y[r][j] = bf16(x[r][j] * rsqrt(mean_k x[r][k]^2 + eps) * weight[j]): RMSNorm (Llama's LlamaRMSNorm: the statistics in fp32, then cast back to the input dtype) over a long last dimension, few rows, bfloat16 activations and weight; one thread per row, a sum-of-squares pass and a write pass, fp32 accumulation.
#include <cuda_bf16.h>

/* @optiml
   sizes:   rows=32 D=1048576           # x 64 MiB in, y 64 MiB out, weight 2 MiB (bf16)
   check:   rows=1 D=1; rows=2 D=7; rows=3 D=1000; rows=32 D=65; rows=1 D=40000; rows=5 D=4099
   x:       in  __nv_bfloat16[rows*D]
   weight:  in  __nv_bfloat16[D] uniform(0.5,1.5)
   y:       out __nv_bfloat16[rows*D]
   eps:     1e-6
   launch:  grid=cdiv(rows,32) block=32
   flops:   4*rows*D
   tol:     1e-2                        # bf16 output
*/
__global__ void rms_norm_bf16(const __nv_bfloat16* x, const __nv_bfloat16* weight, __nv_bfloat16* y, float eps,
                              int rows, int D)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows)
        return;

    long off = (long)row * D;
    float sum_sq = 0.0f;
    for (int j = 0; j < D; j++) {
        float v = __bfloat162float(x[off + j]);
        sum_sq += v * v;
    }
    float scale = rsqrtf(sum_sq / D + eps);

    for (int j = 0; j < D; j++) {
        float v = __bfloat162float(x[off + j]) * scale;
        // LlamaRMSNorm: weight * hidden_states.to(input_dtype)
        float normed = __bfloat162float(__float2bfloat16(v));
        y[off + j] = __float2bfloat16(__bfloat162float(weight[j]) * normed);
    }
}
