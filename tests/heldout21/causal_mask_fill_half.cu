// scores[bh][i][j] = -10000 where j > i + (Sk - Sq), left as it was elsewhere: the causal mask applied in place to fp16 attention scores of Sq new queries against Sk keys (the queries being the last Sq positions), scores.masked_fill_(torch.ones(Sq, Sk).triu(Sk - Sq + 1).bool(), -1e4), the fp16-safe mask value of fp16 attention code; one thread per score, a 3-D grid (key, query, batch-head); only masked scores are written.
#include <cuda_fp16.h>

#define MASK_VALUE -10000.0f

/* @optiml
   sizes:  BH=16 Sq=2048 Sk=2048        # scores 128 MiB (read and written)
   check:  BH=1 Sq=1 Sk=1; BH=2 Sq=5 Sk=5; BH=3 Sq=7 Sk=19; BH=1 Sq=1 Sk=33; BH=4 Sq=40 Sk=40; BH=2 Sq=17 Sk=100
   scores: inout __half[BH*Sq*Sk]
   launch: grid=(cdiv(Sk,32),cdiv(Sq,8),BH) block=(32,8)
*/
__global__ void causal_mask_fill_half(__half* scores, int BH, int Sq, int Sk)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;   // key position
    int i = blockIdx.y * blockDim.y + threadIdx.y;   // query row
    int bh = blockIdx.z;
    if (j >= Sk || i >= Sq || bh >= BH)
        return;

    int offset = Sk - Sq;
    if (j > i + offset) {
        scores[((size_t)bh * Sq + i) * Sk + j] = __float2half(MASK_VALUE);
    }
}
