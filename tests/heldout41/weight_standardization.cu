// weight_std[o, :] = (weight[o, :] - mean_o) / sqrt(var_o + 1e-10) over the fan-in (Cin * kh * kw), biased variance: the weight standardisation of BiT's StdConv2d (`v, m = torch.var_mean(w, dim=[1, 2, 3], keepdim=True, unbiased=False); w = (w - m) / torch.sqrt(v + 1e-10)`), a [2048, 2048, 3, 3] kernel (BiT-R152x4's last stage), fp32; one block of 256 threads an output channel, each thread keeping a Welford (mean, M2, count) triple over its strided fan-in, the triples merged by Chan's formula in a `__device__` helper, down each warp by `__shfl_down_sync` (a second helper), then the warps' triples through three `__shared__` arrays by the first warp; lane 0 of warp 0 broadcasts the mean and `rsqrtf` through a `__shared__` pair and every thread writes its own weights; file-scope `constexpr int kBlock` / `kWarps`, `__launch_bounds__(kBlock)`, float count, `size_t` row offset; weights `normal(0.01,0.05)`.

constexpr int kBlock = 256;
constexpr int kWarps = kBlock / 32;

// Chan et al.: (mean, m2, n) <- (mean, m2, n) + (mean_b, m2_b, n_b)
__device__ __forceinline__ void welford_combine(float& mean, float& m2, float& n, float mean_b, float m2_b, float n_b)
{
    if (n_b == 0.0f)
        return;
    if (n == 0.0f) {
        mean = mean_b;
        m2 = m2_b;
        n = n_b;
        return;
    }
    const float count = n + n_b;
    const float delta = mean_b - mean;
    const float frac_b = n_b / count;
    mean += delta * frac_b;
    m2 += m2_b + delta * delta * n * frac_b;
    n = count;
}

__device__ __forceinline__ void warp_welford(float& mean, float& m2, float& n)
{
    for (int offset = 16; offset > 0; offset >>= 1) {
        const float mean_b = __shfl_down_sync(0xffffffff, mean, offset);
        const float m2_b = __shfl_down_sync(0xffffffff, m2, offset);
        const float n_b = __shfl_down_sync(0xffffffff, n, offset);
        welford_combine(mean, m2, n, mean_b, m2_b, n_b);
    }
}

/* @optiml
   sizes:      out_channels=2048 fan_in=18432   # weight 144 MiB in, weight_std 144 MiB out; 0.26 GFLOP
   check:      out_channels=1 fan_in=1; out_channels=3 fan_in=2; out_channels=5 fan_in=27; out_channels=16 fan_in=147; out_channels=4 fan_in=256; out_channels=7 fan_in=257; out_channels=2 fan_in=2304; out_channels=2 fan_in=18432
   weight:     in  float[out_channels*fan_in] normal(0.01,0.05)
   weight_std: out float[out_channels*fan_in]
   eps:        1e-10
   launch:     grid=out_channels block=256
   flops:      7*out_channels*fan_in
   tol:        1e-5
   atol:       1e-6
*/
__global__ void __launch_bounds__(kBlock) std_conv_weight(const float* __restrict__ weight,
                                                          float* __restrict__ weight_std, float eps,
                                                          int out_channels, int fan_in)
{
    __shared__ float s_mean[kWarps];
    __shared__ float s_m2[kWarps];
    __shared__ float s_n[kWarps];
    __shared__ float s_stats[2];   // mean, 1 / std

    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    const float* w = weight + (size_t)blockIdx.x * fan_in;

    float mean = 0.0f, m2 = 0.0f, n = 0.0f;
    for (int i = threadIdx.x; i < fan_in; i += kBlock) {
        const float v = w[i];
        n += 1.0f;
        const float d = v - mean;
        mean += d / n;
        m2 += d * (v - mean);
    }
    warp_welford(mean, m2, n);
    if (lane == 0) {
        s_mean[warp] = mean;
        s_m2[warp] = m2;
        s_n[warp] = n;
    }
    __syncthreads();

    if (warp == 0) {
        mean = lane < kWarps ? s_mean[lane] : 0.0f;
        m2 = lane < kWarps ? s_m2[lane] : 0.0f;
        n = lane < kWarps ? s_n[lane] : 0.0f;
        warp_welford(mean, m2, n);
        if (lane == 0) {
            s_stats[0] = mean;
            s_stats[1] = rsqrtf(m2 / n + eps);   // biased variance
        }
    }
    __syncthreads();

    const float mu = s_stats[0];
    const float rstd = s_stats[1];
    float* out = weight_std + (size_t)blockIdx.x * fan_in;
    for (int i = threadIdx.x; i < fan_in; i += kBlock)
        out[i] = (w[i] - mu) * rstd;
}
