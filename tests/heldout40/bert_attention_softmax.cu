// probs = softmax(scores / sqrt(d) + (1 - mask[b, None, None, :]) * finfo(float32).min, dim=-1): the eager attention probabilities of Hugging Face BERT (`attention_scores = attention_scores / math.sqrt(self.attention_head_size)`, `attention_scores = attention_scores + attention_mask` with the extended padding mask `(1.0 - attention_mask[:, None, None, :]) * torch.finfo(dtype).min`, `nn.functional.softmax(attention_scores, dim=-1)`), BERT-base (12 heads of 64) at sequence length 512, batch 8, fp32 scores and int64 attention_mask; one warp a row with the warp index taken from the global thread index (`gtid / WARP_SIZE`, a warp-uniform early return), an online (max, sum) pair per lane merged across the warp by `__shfl_xor_sync` (every lane ends with the row's pair, an all -inf pair left alone), a second pass writing the probabilities; `#define WARP_SIZE` and the float32 lowest value; `int64_t` rows and offsets; scores `normal(0,8)` (q.k of 64-dim heads), mask `range(0,2)` (rows of all padding get the uniform distribution, as in PyTorch).

#include <cstdint>

#define WARP_SIZE 32
#define FP32_LOWEST (-3.402823466e+38f)   // torch.finfo(torch.float32).min

/* @optiml
   sizes:          batch=8 heads=12 seq_len=512   # scores 96 MiB in, attention_mask 32 KiB in, probs 96 MiB out; 0.2 GFLOP
   check:          batch=1 heads=1 seq_len=1; batch=2 heads=3 seq_len=5; batch=2 heads=3 seq_len=33; batch=1 heads=2 seq_len=100; batch=3 heads=1 seq_len=64; batch=1 heads=1 seq_len=257; batch=2 heads=1 seq_len=31
   scores:         in  float[batch*heads*seq_len*seq_len] normal(0,8)
   attention_mask: in  int64_t[batch*seq_len] range(0,2)
   probs:          out float[batch*heads*seq_len*seq_len]
   inv_sqrt_d:     0.125
   launch:         grid=cdiv(batch*heads*seq_len*32,256) block=256
   flops:          8*batch*heads*seq_len*seq_len
   tol:            1e-5
*/
__global__ void bert_attention_softmax(const float* __restrict__ scores, const int64_t* __restrict__ attention_mask,
                                       float* __restrict__ probs, float inv_sqrt_d, int batch, int heads, int seq_len)
{
    const int64_t gtid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t row = gtid / WARP_SIZE;                 // (b, h, i) flattened
    const int lane = threadIdx.x % WARP_SIZE;
    if (row >= (int64_t)batch * heads * seq_len)
        return;                                           // the whole warp leaves together

    const int64_t b = row / ((int64_t)heads * seq_len);
    const float* x = scores + row * seq_len;
    const int64_t* m = attention_mask + b * seq_len;
    float* y = probs + row * seq_len;

    // online softmax: running max and the sum of exp(v - max) over this lane's columns
    float run_max = -INFINITY;
    float run_sum = 0.0f;
    for (int j = lane; j < seq_len; j += WARP_SIZE) {
        float v = x[j] * inv_sqrt_d + (1.0f - (float)m[j]) * FP32_LOWEST;
        if (v > run_max) {
            run_sum = run_sum * expf(run_max - v) + 1.0f;
            run_max = v;
        } else {
            run_sum += expf(v - run_max);
        }
    }

    // merge the (max, sum) pairs of the 32 lanes
    for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1) {
        float other_max = __shfl_xor_sync(0xffffffff, run_max, offset);
        float other_sum = __shfl_xor_sync(0xffffffff, run_sum, offset);
        float new_max = fmaxf(run_max, other_max);
        if (new_max != -INFINITY)
            run_sum = run_sum * expf(run_max - new_max) + other_sum * expf(other_max - new_max);
        run_max = new_max;
    }

    const float inv_sum = 1.0f / run_sum;
    for (int j = lane; j < seq_len; j += WARP_SIZE) {
        float v = x[j] * inv_sqrt_d + (1.0f - (float)m[j]) * FP32_LOWEST;
        y[j] = expf(v - run_max) * inv_sum;
    }
}
