// scores[b][h][t] = scale * sum over d of q[b][h][d] * k_cache[b][t][h / (H / KVH)][d]: attention scores of one decoding query per head against a B x T x KVH x D key cache with grouped-query attention (H query heads share KVH key heads), one thread per (b, h, t).
/* @optiml
   sizes:   B=8 T=4096 H=32 KVH=8 D=128  # 2^25 floats of key cache: 128 MiB in; 128 KiB of queries, 4 MiB of scores out
   check:   B=1 T=1 H=1 KVH=1 D=1; B=2 T=5 H=6 KVH=2 D=3; B=1 T=300 H=4 KVH=4 D=64; B=3 T=37 H=8 KVH=1 D=128
   q:       in  float[B*H*D]
   k_cache: in  float[B*T*KVH*D]
   scores:  out float[B*H*T]
   scale:   0.08838834764831845         # 1/sqrt(128)
   launch:  grid=(cdiv(T,128),B*H) block=128
   flops:   2*B*H*T*D
   tol:     1e-4
*/
__global__ void gqa_decode_scores(const float* q, const float* k_cache, float* scores, float scale,
                                  int B, int T, int H, int KVH, int D)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int bh = blockIdx.y;               // b * H + h
    if (t >= T) return;
    int b = bh / H;
    int h = bh % H;
    int kvh = h / (H / KVH);           // key head shared by this query head's group

    const float* q_vec = q + (size_t)bh * D;
    const float* k_vec = k_cache + (((size_t)b * T + t) * KVH + kvh) * D;
    float dot = 0.0f;
    for (int d = 0; d < D; d++)
        dot += q_vec[d] * k_vec[d];
    scores[(size_t)bh * T + t] = dot * scale;
}
