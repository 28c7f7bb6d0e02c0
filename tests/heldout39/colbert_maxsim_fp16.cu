// scores[b] = sum_i max_j q[b][i] . d[b][j] over dim: ColBERT's late-interaction MaxSim (`(Q @ D.transpose(1, 2)).max(2).values.sum(1)`, a bmm reduced by a max over the document tokens and a sum over the query tokens) for 4096 query-passage pairs at ColBERT's shapes (32 query tokens, 300 document tokens, dim 128) in fp16 with fp32 accumulation and an fp32 score; one thread per (b, i) query token on a 1-D launch (flat index split by / and %, early return), the document loop with the dot product inside it and a running maximum, then one `atomicAdd` of the maximum into the zero-initialised score of the pair; `__half2float` loads, `size_t` offsets; embeddings `uniform(-1,1)` (not normalised: the scale does not change the arithmetic).

#include <cuda_fp16.h>

/* @optiml
   sizes:   B=4096 Lq=32 Ld=300 dim=128   # q_emb 32 MiB, d_emb 300 MiB in, scores 16 KiB in and out; 10.1 GFLOP
   check:   B=1 Lq=1 Ld=1 dim=1; B=2 Lq=3 Ld=5 dim=7; B=3 Lq=32 Ld=17 dim=128; B=5 Lq=31 Ld=180 dim=64; B=1 Lq=70 Ld=2 dim=33; B=9 Lq=5 Ld=40 dim=130; B=130 Lq=1 Ld=3 dim=4
   q_emb:   in    __half[B*Lq*dim]
   d_emb:   in    __half[B*Ld*dim]
   scores:  inout float[B] const(0)
   launch:  grid=cdiv(B*Lq,128) block=128
   flops:   2*B*Lq*Ld*dim + B*Lq*Ld
   tol:     1e-5
*/
__global__ void colbert_maxsim(const __half* q_emb, const __half* d_emb, float* scores,
                               int B, int Lq, int Ld, int dim)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= B * Lq)
        return;
    int b = t / Lq;

    const __half* q = q_emb + (size_t)t * dim;             // row (b, i) of the queries
    const __half* d = d_emb + (size_t)b * Ld * dim;

    float best = -INFINITY;
    for (int j = 0; j < Ld; j++) {
        float dot = 0.0f;
        for (int k = 0; k < dim; k++)
            dot += __half2float(q[k]) * __half2float(d[(size_t)j * dim + k]);
        if (dot > best)
            best = dot;
    }
    atomicAdd(&scores[b], best);
}
