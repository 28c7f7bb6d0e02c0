// out[b][d] = sum over t of mask[b][t] * x[b][t][d] / max(sum over t of mask[b][t], 1e-9): attention-masked mean pooling of token embeddings into one sentence embedding per sequence (sentence-transformers' mean_pooling), B x T x D reduced over the middle axis T.
#include <cstdint>

/* @optiml
   sizes:          B=64 T=1024 D=1024   # 2^26 floats: 256 MiB in, 512 KiB of int64 mask, 256 KiB out
   check:          B=1 T=1 D=1; B=2 T=3 D=5; B=3 T=37 D=100; B=1 T=300 D=2; B=5 T=2 D=129
   token_emb:      in  float[B*T*D]
   attention_mask: in  int64_t[B*T] range(0,2)
   out:            out float[B*D]
   launch:         grid=(cdiv(D,128),B) block=128
   flops:          2*B*T*D
   tol:            1e-4
*/
__global__ void masked_mean_pool(const float* __restrict__ token_emb, const int64_t* __restrict__ attention_mask,
                                 float* __restrict__ out, int B, int T, int D)
{
    const int d = blockIdx.x * blockDim.x + threadIdx.x;
    const int b = blockIdx.y;
    if (d >= D) return;
    const float* xb = token_emb + (size_t)b * T * D;
    const int64_t* mb = attention_mask + (size_t)b * T;
    float acc = 0.0f;
    float count = 0.0f;
    for (int t = 0; t < T; t++) {
        float m = (float)mb[t];
        acc += xb[(size_t)t * D + d] * m;
        count += m;
    }
    out[(size_t)b * D + d] = acc / fmaxf(count, 1e-9f);
}
