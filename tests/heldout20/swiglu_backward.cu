// with a = x[r][:d], b = x[r][d:], s = sigmoid(a): dx[r][:d] = g * b * s * (1 + a * (1 - s)), dx[r][d:] = g * a * s: the backward of SwiGLU y = silu(a) * b over one [rows, 2*d] tensor (Megatron-LM's swiglu_back in fused_bias_swiglu, without the bias); a grid-stride loop over rows*d, each step writing both halves.
/* @optiml
   sizes:  rows=4096 d=4096             # x 128 MiB, g 64 MiB in, dx 128 MiB out
   check:  rows=1 d=1; rows=3 d=7; rows=17 d=1000; rows=2 d=4099; rows=300 d=2; rows=64 d=33; rows=1100 d=1001
   g:      in  float[rows*d]
   x:      in  float[rows*2*d] normal(0,2)
   dx:     out float[rows*2*d]
   launch: grid=min(cdiv(rows*d,512),2048) block=512
   flops:  12*rows*d
*/
__global__ void swiglu_bwd(const float* __restrict__ g, const float* __restrict__ x, float* __restrict__ dx,
                           int rows, int d)
{
    size_t n = (size_t)rows * d;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        size_t r = i / d;
        size_t c = i % d;
        size_t base = r * 2 * d;
        float a = x[base + c];
        float b = x[base + d + c];
        float s = 1.0f / (1.0f + expf(-a));
        float gi = g[i];
        dx[base + c] = gi * b * s * (1.0f + a * (1.0f - s));
        dx[base + d + c] = gi * a * s;
    }
}
