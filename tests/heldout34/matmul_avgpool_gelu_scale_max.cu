// y[b] = max_{p < F/K} scale * gelu((1/K) sum_{j = pK}^{pK + K - 1} (bias[j] + sum_i x[b][i] * weight[j][i])), gelu(v) = v/2 (1 + erf(v / sqrt(2))), F = out_features, K = pool, scale = 2.0: KernelBench level 2's Matmul_AvgPool_GELU_Scale_Max (`x = self.matmul(x); x = self.avg_pool(x.unsqueeze(1)).squeeze(1); x = F.gelu(x); x = x * self.scale_factor; x = torch.max(x, dim=1).values`) with nn.Linear(512, 256), nn.AvgPool1d(4) (floor mode: a tail shorter than a window is dropped) and scale 2.0 at batch 8192 fp32, weight in nn.Linear's [out][in] layout; ported from a CPU loop over the rows: one thread per row on a 1-D launch, early return, `__device__` helpers for the dot product (its own loop) and the erf GELU (the double function's name `erf` on a float), a two-variable window loop `for (int j = p * pool, stop = j + pool; j < stop; ++j)`, a `bool have` flag seeding the running max, the window count hoisted into a `const int`, the scale a float argument with its own contract line, KernelBench's names.

__device__ float dot_row(const float* a, const float* b, int n)
{
    float s = 0.0f;
    for (int i = 0; i < n; ++i)
        s += a[i] * b[i];
    return s;
}

__device__ float gelu_erf(float v)
{
    return 0.5f * v * (1.0f + erf(v * 0.70710678118654752f));
}

/* @optiml
   sizes:   batch_size=8192 in_features=512 out_features=256 pool=4   # x 16 MiB in, weight 512 KiB in, bias 1 KiB in, y 32 KiB out; 2.2 GFLOP
   check:   batch_size=1 in_features=1 out_features=1 pool=1; batch_size=3 in_features=7 out_features=10 pool=4; batch_size=2 in_features=64 out_features=256 pool=4; batch_size=130 in_features=5 out_features=9 pool=3; batch_size=4 in_features=33 out_features=17 pool=16; batch_size=5 in_features=100 out_features=40 pool=1
   x:             in  float[batch_size*in_features]
   weight:        in  float[out_features*in_features] uniform(-0.044,0.044)
   bias:          in  float[out_features] uniform(-0.044,0.044)
   y:             out float[batch_size]
   scale_factor:  2.0
   launch:        grid=cdiv(batch_size,128) block=128
   flops:         2*batch_size*in_features*out_features + 2*batch_size*out_features
   tol:           1e-4
*/
__global__ void matmul_avgpool_gelu_scale_max(const float* x, const float* weight, const float* bias, float* y,
                                              float scale_factor, int batch_size, int in_features, int out_features,
                                              int pool)
{
    const int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= batch_size)
        return;

    const float* xr = x + static_cast<size_t>(b) * in_features;
    const int windows = out_features / pool;
    const float inv_pool = 1.0f / static_cast<float>(pool);

    bool have = false;
    float best = 0.0f;
    for (int p = 0; p < windows; ++p) {
        float s = 0.0f;
        for (int j = p * pool, stop = j + pool; j < stop; ++j)
            s += dot_row(xr, weight + static_cast<size_t>(j) * in_features, in_features) + bias[j];
        const float v = gelu_erf(s * inv_pool) * scale_factor;
        if (!have || v > best) {
            best = v;
            have = true;
        }
    }
    y[b] = best;
}
