// probs[b][i][j] = exp(scale * scores[b][i][j] - m) / sum over j' <= i of exp(scale * scores[b][i][j'] - m) for j <= i, and 0 for j > i (m the row max over j <= i): causal-masked softmax of attention scores (masked_fill(triu(1), -inf) then softmax(dim=-1)), BH score matrices of T x T, one thread per query row.
#include <math.h>

/* @optiml
   sizes:  BH=256 T=512                 # 2^26 scores; only the lower triangle read (128 MiB), 256 MiB written
   check:  BH=1 T=1; BH=2 T=3; BH=3 T=37; BH=1 T=300; BH=5 T=2
   scores: in  float[BH*T*T] normal(0,3)
   probs:  out float[BH*T*T]
   scale:  0.125
   launch: grid=cdiv(BH*T,256) block=256
   flops:  3*BH*T*(T+1)
   bytes:  2*BH*T*(T+1) + 4*BH*T*T      # the T(T+1)/2 causal scores of each matrix read, all T*T written
   tol:    1e-4
*/
__global__ void causal_softmax_scaled(const float* scores, float* probs, float scale, int BH, int T)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;   // row of the (BH*T) x T view
    if (row >= BH * T)
        return;
    int i = row % T;                                   // query position: keys 0..i are visible
    const float* s = scores + (long long)row * T;
    float* p = probs + (long long)row * T;

    float mx = -INFINITY;
    for (int j = 0; j <= i; ++j)
        mx = fmaxf(mx, s[j] * scale);

    float sum = 0.f;
    for (int j = 0; j <= i; ++j)
        sum += expf(s[j] * scale - mx);

    for (int j = 0; j < T; ++j) {
        if (j > i) {
            p[j] = 0.f;
            continue;
        }
        p[j] = expf(s[j] * scale - mx) / sum;
    }
}
