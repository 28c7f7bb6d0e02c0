// p = softmax(router_logits[t]) over E experts, (i1, i2) = the two largest, w_k = p[i_k] / (p[i1] + p[i2]): Mixtral's top-2 routing (MixtralSparseMoeBlock: softmax, torch.topk(2), renormalize), writing topk_weights and int32 topk_ids per token, largest first; one thread per token, a max / sum pass and a selection pass over its E logits.
#include <cfloat>

#define TOPK 2

/* @optiml
   sizes:        tokens=262144 E=64       # 2^24 floats: 64 MiB in, 2 MiB + 2 MiB out
   check:        tokens=1 E=2; tokens=3 E=8; tokens=100 E=7; tokens=17 E=64; tokens=2 E=160; tokens=513 E=3
   router_logits: in  float[tokens*E] normal(0,2)
   topk_weights:  out float[tokens*2]
   topk_ids:      out int[tokens*2]
   launch:       grid=cdiv(tokens,128) block=128
   flops:        6*tokens*E
   tol:          1e-4
*/
__global__ void top2_softmax_router(const float* router_logits, float* topk_weights, int* topk_ids,
                                    int tokens, int E)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= tokens)
        return;

    const float* l = router_logits + (long)t * E;

    float mx = -FLT_MAX;
    for (int e = 0; e < E; ++e)
        mx = fmaxf(mx, l[e]);
    float sum = 0.0f;
    for (int e = 0; e < E; ++e)
        sum += expf(l[e] - mx);

    // the first and second largest logits; the lower index wins a tie
    int i1 = -1, i2 = -1;
    float v1 = -FLT_MAX, v2 = -FLT_MAX;
    for (int e = 0; e < E; ++e) {
        float v = l[e];
        if (i1 < 0 || v > v1) {
            i2 = i1; v2 = v1;
            i1 = e;  v1 = v;
        } else if (i2 < 0 || v > v2) {
            i2 = e;  v2 = v;
        }
    }

    float p1 = expf(v1 - mx) / sum;
    float p2 = expf(v2 - mx) / sum;
    float norm = p1 + p2;
    topk_weights[t * TOPK + 0] = p1 / norm;
    topk_weights[t * TOPK + 1] = p2 / norm;
    topk_ids[t * TOPK + 0] = i1;
    topk_ids[t * TOPK + 1] = i2;
}
