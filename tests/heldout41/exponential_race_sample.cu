// next_token[r] = argmax_c softmax(logits[r] / T)[c] / q[r, c] (first index of the maximum), logprob[r] = log_softmax(logits[r] / T)[next_token[r]]: the exponential-race (Gumbel-max) multinomial sampling of an LLM sampler (vLLM's `probs.div_(q).argmax(dim=-1)` with q ~ Exp(1), plus the sampled token's log-probability), temperature 0.8, 256 sequences x 128256 (Llama-3 vocabulary), fp32, int64 tokens; one block of 256 threads a row, each thread keeping a (score, index) pair for the race in log space (logits / T - log q) and an online log-sum-exp (max, rescaled sum, `fmaxf` form) of logits / T, the four values merged by `__shfl_down_sync` within each warp (ties to the lower index), then across the warps through `__shared__` arrays by the first warp; thread 0 gathers the winner's logit; `template <int BLOCK>` with `__launch_bounds__(BLOCK)`, `constexpr` warp count, `#define FULL_MASK`, a `__device__` helper for the warp merge called twice, `size_t` row offset; logits `normal(0,2)`, q `uniform(0.05,4)` (standing in for the Exp(1) draws: a fill has no exponential).

#include <cstdint>

#define FULL_MASK 0xffffffffu

// merges the (score, index) race state and the (max, sum) log-sum-exp state down a warp; lane 0 ends with the total
__device__ __forceinline__ void warp_race_lse(float& best, int& best_idx, float& mx, float& sum)
{
    for (int off = 16; off > 0; off >>= 1) {
        const float b2 = __shfl_down_sync(FULL_MASK, best, off);
        const int i2 = __shfl_down_sync(FULL_MASK, best_idx, off);
        const float m2 = __shfl_down_sync(FULL_MASK, mx, off);
        const float s2 = __shfl_down_sync(FULL_MASK, sum, off);
        if (b2 > best || (b2 == best && i2 < best_idx)) {   // ties to the lower index
            best = b2;
            best_idx = i2;
        }
        const float nm = fmaxf(mx, m2);
        sum = (nm == -INFINITY) ? 0.0f : sum * expf(mx - nm) + s2 * expf(m2 - nm);
        mx = nm;
    }
}

/* @optiml
   sizes:       rows=256 vocab=128256   # logits and q 125.25 MiB each in, next_token 2 KiB and logprob 1 KiB out; 0.2 GFLOP
   check:       rows=1 vocab=1; rows=7 vocab=3; rows=2 vocab=255; rows=4 vocab=1000; rows=3 vocab=257; rows=5 vocab=31; rows=2 vocab=4099; rows=1 vocab=128256
   template:    BLOCK=256
   logits:      in  float[rows*vocab] normal(0,2)
   q:           in  float[rows*vocab] uniform(0.05,4)
   next_token:  out int64_t[rows]
   logprob:     out float[rows]
   temperature: 0.8
   launch:      grid=rows block=BLOCK
   flops:       6*rows*vocab
   tol:         1e-4
   atol:        1e-6
*/
template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
exponential_race_sample(const float* __restrict__ logits, const float* __restrict__ q,
                        int64_t* __restrict__ next_token, float* __restrict__ logprob, float temperature, int rows,
                        int vocab)
{
    constexpr int WARPS = BLOCK / 32;
    __shared__ float sh_best[WARPS];
    __shared__ int sh_idx[WARPS];
    __shared__ float sh_max[WARPS];
    __shared__ float sh_sum[WARPS];

    const float inv_t = 1.0f / temperature;
    const size_t base = (size_t)blockIdx.x * vocab;
    const int lane = threadIdx.x & 31;
    const int wid = threadIdx.x >> 5;

    float best = -INFINITY;   // race winner so far: log(p / q) up to the row's normaliser
    int best_idx = vocab;
    float mx = -INFINITY;     // log-sum-exp of logits / T
    float sum = 0.0f;
    for (int c = threadIdx.x; c < vocab; c += BLOCK) {
        const float z = logits[base + c] * inv_t;
        const float score = z - logf(q[base + c]);
        if (score > best) {
            best = score;
            best_idx = c;
        }
        const float nm = fmaxf(mx, z);
        sum = sum * expf(mx - nm) + expf(z - nm);
        mx = nm;
    }

    warp_race_lse(best, best_idx, mx, sum);
    if (lane == 0) {
        sh_best[wid] = best;
        sh_idx[wid] = best_idx;
        sh_max[wid] = mx;
        sh_sum[wid] = sum;
    }
    __syncthreads();

    if (wid == 0) {
        best = lane < WARPS ? sh_best[lane] : -INFINITY;
        best_idx = lane < WARPS ? sh_idx[lane] : vocab;
        mx = lane < WARPS ? sh_max[lane] : -INFINITY;
        sum = lane < WARPS ? sh_sum[lane] : 0.0f;
        warp_race_lse(best, best_idx, mx, sum);
    }

    if (threadIdx.x == 0) {
        next_token[blockIdx.x] = best_idx;
        logprob[blockIdx.x] = logits[base + best_idx] * inv_t - (mx + logf(sum));
    }
}
