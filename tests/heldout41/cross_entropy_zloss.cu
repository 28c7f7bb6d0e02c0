// loss[r] = lse_r - logits[r, target[r]] + z_coef * lse_r^2 with lse_r = logsumexp(logits[r]), 0 where target[r] == ignore_index: token cross-entropy with PaLM's auxiliary z-loss (z_coef 1e-4, as in T5X and OLMo: `ce = F.cross_entropy(logits, target, ignore_index=-1, reduction="none"); z = torch.logsumexp(logits, -1); loss = ce + 1e-4 * z ** 2 * (target != -1)`), 2048 tokens x 50304 (a GPT-NeoX vocabulary padded to a multiple of 128), fp32 logits, int64 targets; one warp a row, the warp index from the global thread index, a warp-uniform early return, each lane keeping an online (max, rescaled sum) pair over its strided columns (`if (v > m) {...} else {...}`), the pairs merged by a `__shfl_xor_sync` butterfly through a `__device__` helper that skips two empty states, lane 0 gathering the target logit and writing; `#define WARP_SIZE` / `WARPS_PER_BLOCK`, `int64_t` row offset and scalar; logits `normal(0,2)`, targets `range(-1,8)`.

#include <cstdint>

#define WARP_SIZE 32
#define WARPS_PER_BLOCK 8

__device__ __forceinline__ void online_merge(float& m, float& s, float m_other, float s_other)
{
    float m_new = fmaxf(m, m_other);
    if (m_new == -INFINITY)
        return;   // both lanes saw nothing
    s = s * expf(m - m_new) + s_other * expf(m_other - m_new);
    m = m_new;
}

/* @optiml
   sizes:        rows=2048 vocab=50304   # logits 393 MiB, target 16 KiB in, loss 8 KiB out; 0.41 GFLOP
   check:        rows=1 vocab=8; rows=3 vocab=9; rows=9 vocab=31; rows=8 vocab=32; rows=5 vocab=33; rows=4 vocab=1000; rows=2 vocab=50304; rows=17 vocab=100
   logits:       in  float[rows*vocab] normal(0,2)
   target:       in  int64_t[rows] range(-1,8)
   loss:         out float[rows]
   z_loss_coef:  1e-4
   ignore_index: -1
   launch:       grid=cdiv(rows,8) block=256
   flops:        4*rows*vocab
   tol:          1e-5
   atol:         1e-6
*/
__global__ void cross_entropy_z_loss(const float* __restrict__ logits, const int64_t* __restrict__ target,
                                     float* __restrict__ loss, float z_loss_coef, int64_t ignore_index, int rows,
                                     int vocab)
{
    const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / WARP_SIZE;
    const int lane = threadIdx.x % WARP_SIZE;
    if (warp >= rows)
        return;   // the whole warp leaves together
    const float* row = logits + (int64_t)warp * vocab;

    float m = -INFINITY;   // running max
    float s = 0.0f;        // sum of exp(v - m)
    for (int c = lane; c < vocab; c += WARP_SIZE) {
        float v = row[c];
        if (v > m) {
            s = s * expf(m - v) + 1.0f;
            m = v;
        } else {
            s += expf(v - m);
        }
    }

    for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1) {
        float m_o = __shfl_xor_sync(0xffffffffu, m, offset);
        float s_o = __shfl_xor_sync(0xffffffffu, s, offset);
        online_merge(m, s, m_o, s_o);
    }

    if (lane == 0) {
        int64_t t = target[warp];
        float out = 0.0f;
        if (t != ignore_index) {
            float lse = m + logf(s);
            out = lse - row[t] + z_loss_coef * lse * lse;
        }
        loss[warp] = out;
    }
}
