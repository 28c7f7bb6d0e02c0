// loss[b][t] = max(-A * r, -A * clamp(r, 1 - eps, 1 + eps)) * mask[b][t] with r = exp(logp - old_logp), eps = 0.2: the per-token clipped surrogate loss of PPO (verl's `compute_policy_loss` / TRL's PPO trainer, `torch.maximum(pg_losses, pg_losses2)` before the masked mean) over 1024 responses of 5120 tokens with a Hugging Face int64 response mask; one thread per token on a 2-D grid (tokens on x, blockIdx.y = response), expf, fminf / fmaxf for the clamp.
#include <cstdint>

/* @optiml
   sizes:   B=1024 T=5120               # logp, old_logp, advantages 20 MiB each in, mask 40 MiB in (int64), loss 20 MiB out
   check:   B=1 T=1; B=2 T=7; B=3 T=255; B=1 T=256; B=4 T=257; B=5 T=1000; B=17 T=33
   logp:       in  float[B*T] normal(-2,0.1)
   old_logp:   in  float[B*T] normal(-2,0.1)
   advantages: in  float[B*T] normal(0,1)
   mask:       in  int64_t[B*T] range(0,2)
   loss:       out float[B*T]
   clip_eps:   0.2
   launch:  grid=(cdiv(T,256),B) block=256
   flops:   9*B*T
   tol:     1e-5
*/
__global__ void ppo_clip_loss(const float* logp, const float* old_logp, const float* advantages, const int64_t* mask,
                              float* loss, float clip_eps, int B, int T)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int b = blockIdx.y;
    if (t >= T)
        return;

    size_t i = (size_t)b * T + t;
    float ratio = expf(logp[i] - old_logp[i]);
    float clipped = fminf(fmaxf(ratio, 1.0f - clip_eps), 1.0f + clip_eps);
    float A = advantages[i];
    float l = fmaxf(-A * ratio, -A * clipped);
    loss[i] = l * (float)mask[i];
}
