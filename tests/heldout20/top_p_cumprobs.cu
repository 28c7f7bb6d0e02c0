// cumprobs[b][j] = sum over k <= j of softmax(logits_sort[b])[k]: the cumulative probabilities of sorted logits that top-p (nucleus) sampling thresholds (vLLM's apply_top_k_top_p: probs_sort = logits_sort.softmax(dim=-1), probs_sum = probs_sort.cumsum(dim=-1)); one thread per row, a max pass, a sum-of-exponentials pass and a running-sum pass.
#include <cfloat>

/* @optiml
   sizes:       batch=1024 vocab=32000     # 125 MiB in, 125 MiB out
   check:       batch=1 vocab=1; batch=3 vocab=7; batch=2 vocab=1000; batch=17 vocab=33; batch=1 vocab=4099; batch=64 vocab=2
   logits_sort: in  float[batch*vocab] normal(0,3)
   cumprobs:    out float[batch*vocab]
   launch:      grid=cdiv(batch,64) block=64
   flops:       5*batch*vocab
   tol:         1e-4
*/
__global__ void sorted_softmax_cumsum(const float* logits_sort, float* cumprobs, int batch, int vocab)
{
    long b = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= batch)
        return;

    const float* x = logits_sort + b * vocab;
    float* out = cumprobs + b * vocab;

    float mx = -FLT_MAX;
    for (int j = 0; j < vocab; j++)
        if (x[j] > mx) mx = x[j];

    float denom = 0.0f;
    for (int j = 0; j < vocab; j++)
        denom += expf(x[j] - mx);

    float running = 0.0f;
    for (int j = 0; j < vocab; j++) {
        running += expf(x[j] - mx) / denom;
        out[j] = running;
    }
}
