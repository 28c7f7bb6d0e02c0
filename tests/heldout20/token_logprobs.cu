// logp[t] = logits[t][labels[t]] - log(sum over v of exp(logits[t][v])): the log-probability of each sampled / label token under the policy, as RL fine-tuning computes it (TRL's selective_log_softmax, verl's logprobs_from_logits: log_softmax then gather), int64 labels; one thread per token, a max pass and a sum pass over its vocabulary row.
#include <cstdint>
#include <cfloat>

__device__ float row_logsumexp(const float* row, int n)
{
    float m = -FLT_MAX;
    for (int i = 0; i < n; i++)
        m = fmaxf(m, row[i]);
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s += expf(row[i] - m);
    return m + logf(s);
}

/* @optiml
   sizes:  T=2048 V=32000               # 250 MiB of logits in, 16 KiB of labels, 8 KiB out
   check:  T=1 V=32000; T=3 V=32001; T=17 V=32003; T=2 V=50257; T=40 V=32768
   logits: in  float[T*V] normal(0,3)
   labels: in  int64_t[T] range(0,32000)
   logp:   out float[T]
   launch: grid=cdiv(T,128) block=128
   flops:  4*T*V
   tol:    1e-4
*/
__global__ void gather_token_logprobs(const float* logits, const int64_t* labels, float* logp, int T, int V)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= T)
        return;
    const float* row = logits + (size_t)t * V;
    logp[t] = row[labels[t]] - row_logsumexp(row, V);
}
