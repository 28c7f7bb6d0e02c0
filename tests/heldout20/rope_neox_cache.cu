// for each token t, head of query or key, i < D/2, with c = cos_sin_cache[pos[t]][i], s = cos_sin_cache[pos[t]][D/2 + i]: x[i] <- x[i] c - x[D/2+i] s, x[D/2+i] <- x[D/2+i] c + x[i] s in place: vLLM's rotary_embedding (neox style, rot_dim = head_size) on query [T, H*D] and key [T, KVH*D] with int64 positions and a [max_pos, D] cache holding cos in its first half and sin in its second; one thread per rotated pair, the flat index decoded into (token, head, i), the first H heads from query and the next KVH from key.
#include <cstdint>

/* @optiml
   sizes:         T=4096 H=32 KVH=8 D=128 max_pos=2048   # query 64 MiB, key 16 MiB (read and written), cache 1 MiB
   check:         T=1 H=1 KVH=1 D=2; T=3 H=4 KVH=2 D=8; T=17 H=5 KVH=1 D=64; T=2 H=3 KVH=3 D=34; T=100 H=2 KVH=1 D=16; T=7 H=8 KVH=4 D=128
   positions:     in    int64_t[T] range(0,2048)
   query:         inout float[T*H*D]
   key:           inout float[T*KVH*D]
   cos_sin_cache: in    float[max_pos*D]
   launch:        grid=cdiv(T*(H+KVH)*(D/2),256) block=256
   flops:         6*T*(H+KVH)*(D/2)
*/
__global__ void rotary_embedding_neox(const int64_t* __restrict__ positions, float* __restrict__ query,
                                      float* __restrict__ key, const float* __restrict__ cos_sin_cache,
                                      int T, int H, int KVH, int D)
{
    int half = D / 2;
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= T * (H + KVH) * half) return;

    int i = idx % half;
    int head = (idx / half) % (H + KVH);
    int t = idx / (half * (H + KVH));

    const float* cs = cos_sin_cache + positions[t] * D;
    float c = cs[i];
    float s = cs[half + i];

    float* x;
    if (head < H)
        x = query + ((long)t * H + head) * D;
    else
        x = key + ((long)t * KVH + (head - H)) * D;

    float x1 = x[i];
    float x2 = x[half + i];
    x[i] = x1 * c - x2 * s;
    x[half + i] = x2 * c + x1 * s;
}
