// scale[r] = max_j |x[r][j]| / 127, q[r][j] = round_half_even(x[r][j] / scale[r]): per-token dynamic int8 quantization of fp16 activations (the vector-wise absmax quantization of LLM.int8() / SmoothQuant, vLLM's dynamic_scaled_int8_quant), an all-zero row taking scale 1; one thread per row, absmax pass then quantize pass.
#include <cuda_fp16.h>
#include <cstdint>

/* @optiml
   sizes:  tokens=16384 hidden=4096     # 2^26 halves: 128 MiB in, 64 MiB of int8 out, 64 KiB of scales
   check:  tokens=1 hidden=1; tokens=3 hidden=7; tokens=17 hidden=1000; tokens=2 hidden=4099; tokens=130 hidden=2; tokens=4 hidden=512
   x:      in  __half[tokens*hidden]
   q:      out int8_t[tokens*hidden]
   scale:  out float[tokens]
   launch: grid=cdiv(tokens,256) block=256
   flops:  3*tokens*hidden
*/
__global__ void quantize_rowwise_int8(const __half* x, int8_t* q, float* scale, int tokens, int hidden)
{
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= tokens)
        return;

    const __half* row = x + t * hidden;
    float amax = 0.0f;
    for (int j = 0; j < hidden; j++)
        amax = fmaxf(amax, fabsf(__half2float(row[j])));

    float s = amax > 0.0f ? amax / 127.0f : 1.0f;
    for (int j = 0; j < hidden; j++) {
        float v = rintf(__half2float(row[j]) / s);   // round to nearest, ties to even
        v = fminf(fmaxf(v, -128.0f), 127.0f);
        q[t * hidden + j] = (int8_t)v;
    }
    scale[t] = s;
}
