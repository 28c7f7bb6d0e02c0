// h = x + bias + residual, y = (h - mean(h)) / sqrt(var(h) + eps) * gamma + beta over each row of 2048 features (biased variance, eps 1e-5): the fused "bias + residual add + LayerNorm" at the end of a post-LN transformer sublayer (BERT's BertSelfOutput, `LayerNorm(dense(x) + input)` at inference, the dense layer's bias added here), 4096 tokens, h also written out for the next residual; one block of 256 threads per row, warpReduceSum / blockReduceSum helpers (__shfl_down_sync from warpSize / 2, a static __shared__ float shared[32] of per-warp sums), mean and 1 / std broadcast through __shared__ scalars written by thread 0, three strided passes over the row.
#define FULL_MASK 0xffffffff

__inline__ __device__ float warpReduceSum(float val)
{
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        val += __shfl_down_sync(FULL_MASK, val, offset);
    return val;
}

// the block's sum, valid in thread 0
__inline__ __device__ float blockReduceSum(float val)
{
    static __shared__ float shared[32];
    int lane = threadIdx.x % warpSize;
    int wid = threadIdx.x / warpSize;

    val = warpReduceSum(val);
    if (lane == 0)
        shared[wid] = val;
    __syncthreads();

    val = (threadIdx.x < blockDim.x / warpSize) ? shared[lane] : 0.0f;
    if (wid == 0)
        val = warpReduceSum(val);
    return val;
}

/* @optiml
   sizes:   rows=4096 D=2048            # x, residual 32 MiB each in, h, y 32 MiB each out, bias/gamma/beta 8 KiB each
   check:   rows=1 D=1; rows=3 D=7; rows=2 D=255; rows=5 D=256; rows=4 D=1000; rows=3 D=2049; rows=37 D=64
   x:        in  float[rows*D]
   residual: in  float[rows*D]
   bias:     in  float[D]
   gamma:    in  float[D] uniform(0.5,1.5)
   beta:     in  float[D]
   h:        out float[rows*D]
   y:        out float[rows*D]
   eps:      1e-5
   launch:   grid=rows block=256
   flops:    10*rows*D
   tol:      1e-4
*/
__global__ void add_bias_residual_layernorm(const float* __restrict__ x, const float* __restrict__ residual,
                                            const float* __restrict__ bias, const float* __restrict__ gamma,
                                            const float* __restrict__ beta, float* __restrict__ h,
                                            float* __restrict__ y, int rows, int D, float eps)
{
    __shared__ float s_mean;
    __shared__ float s_rstd;

    int row = blockIdx.x;
    const float* xr = x + (size_t)row * D;
    const float* rr = residual + (size_t)row * D;
    float* hr = h + (size_t)row * D;
    float* yr = y + (size_t)row * D;

    float sum = 0.0f;
    for (int i = threadIdx.x; i < D; i += blockDim.x) {
        float v = xr[i] + bias[i] + rr[i];
        hr[i] = v;
        sum += v;
    }
    sum = blockReduceSum(sum);
    if (threadIdx.x == 0)
        s_mean = sum / D;
    __syncthreads();
    float mean = s_mean;

    float sq = 0.0f;
    for (int i = threadIdx.x; i < D; i += blockDim.x) {
        float d = hr[i] - mean;
        sq += d * d;
    }
    sq = blockReduceSum(sq);
    if (threadIdx.x == 0)
        s_rstd = rsqrtf(sq / D + eps);
    __syncthreads();
    float rstd = s_rstd;

    for (int i = threadIdx.x; i < D; i += blockDim.x)
        yr[i] = (hr[i] - mean) * rstd * gamma[i] + beta[i];
}
