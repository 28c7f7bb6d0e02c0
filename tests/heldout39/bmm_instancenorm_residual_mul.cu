// out[b] = (norm(z[b]) + y[b]) * y[b] with z = x @ weight^T + bias and norm(v) = (v - mean(v)) / sqrt(var(v) + 1e-5) over the row's features (biased variance, no affine): KernelBench level 2's BMM_InstanceNorm_Sum_ResidualAdd_Multiply (`x = self.bmm(x)`, an nn.Linear; `x = self.instance_norm(x.unsqueeze(1).unsqueeze(1)).squeeze(1).squeeze(1)`, nn.InstanceNorm2d over a [batch, 1, 1, features] view, i.e. a per-row normalisation; `x = x + y; x = x * y`) at KernelBench's batch 1024 and 8192 -> 8192 features, fp32; one block of 256 threads a row, threads striding over the features, the products written to the output row and re-read by the thread that wrote them, two block reductions (the sum, then the sum of squared deviations) by `__shfl_down_sync` within warps and eight per-warp partials in `__shared__` memory summed by every thread, a `constexpr int kBlock`, `__inline__ __device__` helpers, `eps` as an argument, `long` row offsets; x and y `uniform(0,1)` (`torch.rand`), weight and bias `uniform(-0.011,0.011)` (nn.Linear's bound 1/sqrt(8192)).

constexpr int kBlock = 256;
constexpr int kWarps = kBlock / 32;

__inline__ __device__ float warp_reduce_sum(float v)
{
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    return v;
}

// sum of v over the block, returned to every thread
__inline__ __device__ float block_reduce_sum(float v, float* partial)
{
    int lane = threadIdx.x % 32;
    int wid = threadIdx.x / 32;
    v = warp_reduce_sum(v);
    __syncthreads();                     // partial[] may still be read from the previous call
    if (lane == 0)
        partial[wid] = v;
    __syncthreads();
    float total = 0.0f;
    for (int i = 0; i < kWarps; i++)
        total += partial[i];
    return total;
}

/* @optiml
   sizes:   batch=1024 in_features=8192 out_features=8192   # x 32 MiB, y 32 MiB, weight 256 MiB, bias 32 KiB in, out 32 MiB out; 137.5 GFLOP
   check:   batch=1 in_features=1 out_features=2; batch=2 in_features=3 out_features=5; batch=3 in_features=64 out_features=255; batch=5 in_features=17 out_features=257; batch=1 in_features=100 out_features=1000; batch=9 in_features=33 out_features=31; batch=4 in_features=2 out_features=600
   x:       in  float[batch*in_features] uniform(0,1)
   y:       in  float[batch*out_features] uniform(0,1)
   weight:  in  float[out_features*in_features] uniform(-0.011,0.011)
   bias:    in  float[out_features] uniform(-0.011,0.011)
   out:     out float[batch*out_features]
   eps:     1e-5
   launch:  grid=batch block=256
   flops:   2*batch*out_features*in_features + 9*batch*out_features
   tol:     1e-4
*/
__global__ void bmm_instancenorm_residual_mul(const float* x, const float* y, const float* weight, const float* bias,
                                              float* out, int batch, int in_features, int out_features, float eps)
{
    __shared__ float partial[kWarps];

    int row = blockIdx.x;
    const float* xr = x + (long)row * in_features;
    const float* yr = y + (long)row * out_features;
    float* orow = out + (long)row * out_features;

    float s = 0.0f;
    for (int j = threadIdx.x; j < out_features; j += kBlock) {
        const float* wr = weight + (long)j * in_features;
        float acc = bias[j];
        for (int k = 0; k < in_features; k++)
            acc += xr[k] * wr[k];
        orow[j] = acc;
        s += acc;
    }
    float mean = block_reduce_sum(s, partial) / out_features;

    float q = 0.0f;
    for (int j = threadIdx.x; j < out_features; j += kBlock) {
        float d = orow[j] - mean;
        q += d * d;
    }
    float var = block_reduce_sum(q, partial) / out_features;
    float rstd = rsqrtf(var + eps);

    for (int j = threadIdx.x; j < out_features; j += kBlock) {
        float v = (orow[j] - mean) * rstd;
        v = v + yr[j];
        orow[j] = v * yr[j];
    }
}
