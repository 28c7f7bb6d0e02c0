// y[b, t, :] = (x[b, t, :] - mean) / sqrt(var + 1e-6) * (1 + scale[b, :]) + shift[b, :] (LayerNorm over the last axis without affine weights, biased variance): DiT's adaLN modulation of the final layer (`modulate(self.norm_final(x), shift, scale)` with `nn.LayerNorm(hidden_size, elementwise_affine=False, eps=1e-6)` and `x * (1 + scale.unsqueeze(1)) + shift.unsqueeze(1)`), DiT-XL/2 at 512 px (1024 tokens of 1152), batch 16, fp32; one block of 128 threads a token, the row's inputs loaded once into `extern __shared__ float xs[]` (`smem=4*D`) and read from there by the mean pass, the centred-variance pass and the output pass, `warpReduceSum` by `__shfl_down_sync` with per-warp partials in `__shared__` memory summed by thread 0, which broadcasts the mean and the rsqrt through `__shared__` scalars, every thread writing its own elements of the row; file-scope `constexpr int kThreads` / `kWarps`, `int64_t` row offsets, `__restrict__`; x `normal(0,1)`, shift and scale `uniform(-0.5,0.5)`.

#include <cstdint>

constexpr int kThreads = 128;
constexpr int kWarps = kThreads / 32;

__inline__ __device__ float warpReduceSum(float val)
{
    for (int offset = 16; offset > 0; offset /= 2)
        val += __shfl_down_sync(0xffffffff, val, offset);
    return val;
}

/* @optiml
   sizes:  B=16 T=1024 D=1152   # x 72 MiB in, shift / scale 72 KiB each in, y 72 MiB out; 0.15 GFLOP
   check:  B=1 T=1 D=1; B=2 T=3 D=5; B=3 T=4 D=100; B=2 T=5 D=129; B=1 T=2 D=1152; B=4 T=3 D=33; B=1 T=3 D=2050; B=2 T=7 D=127
   x:      in  float[B*T*D] normal(0,1)
   shift:  in  float[B*D] uniform(-0.5,0.5)
   scale:  in  float[B*D] uniform(-0.5,0.5)
   y:      out float[B*T*D]
   eps:    1e-6
   launch: grid=B*T block=128 smem=4*D
   flops:  8*B*T*D
   tol:    1e-5
*/
__global__ void dit_modulate_layernorm(const float* __restrict__ x, const float* __restrict__ shift,
                                       const float* __restrict__ scale, float* __restrict__ y,
                                       int B, int T, int D, float eps)
{
    extern __shared__ float xs[];            // this token's D inputs
    __shared__ float warp_sums[kWarps];
    __shared__ float s_mean;
    __shared__ float s_rstd;

    const int64_t row = blockIdx.x;          // b * T + t
    const int64_t b = row / T;
    const float* xr = x + row * D;
    const int lane = threadIdx.x % 32;
    const int wid = threadIdx.x / 32;

    float sum = 0.0f;
    for (int i = threadIdx.x; i < D; i += kThreads) {
        float v = xr[i];
        xs[i] = v;
        sum += v;
    }
    sum = warpReduceSum(sum);
    if (lane == 0)
        warp_sums[wid] = sum;
    __syncthreads();
    if (threadIdx.x == 0) {
        float total = 0.0f;
        for (int w = 0; w < kWarps; ++w)
            total += warp_sums[w];
        s_mean = total / D;
    }
    __syncthreads();
    const float mean = s_mean;

    float sq = 0.0f;
    for (int i = threadIdx.x; i < D; i += kThreads) {
        float d = xs[i] - mean;
        sq += d * d;
    }
    sq = warpReduceSum(sq);
    if (lane == 0)
        warp_sums[wid] = sq;
    __syncthreads();
    if (threadIdx.x == 0) {
        float total = 0.0f;
        for (int w = 0; w < kWarps; ++w)
            total += warp_sums[w];
        s_rstd = rsqrtf(total / D + eps);
    }
    __syncthreads();
    const float rstd = s_rstd;

    const float* sh = shift + b * D;
    const float* sc = scale + b * D;
    float* yr = y + row * D;
    for (int i = threadIdx.x; i < D; i += kThreads)
        yr[i] = (xs[i] - mean) * rstd * (1.0f + sc[i]) + sh[i];
}
