// o[b][h][i] = sum_j softmax_j(q_i . k_j / sqrt(64)) v_j: F.scaled_dot_product_attention(q, k, v) (no mask, no dropout, the default 1 / sqrt(head_dim) scale) on [8, 16, 1024, 64] query, key and value tensors, written as one kernel; one thread per query row, the scaled query and the running output in local arrays of HEAD_DIM = 64, an online softmax over the keys (a running max and sum, the output rescaled by expf(m_old - m_new) at each key), #pragma unroll over the head dimension, an early return.
#include <math.h>
#define HEAD_DIM 64

/* @optiml
   sizes:   B=8 H=16 S=1024             # q, k, v 32 MiB each in, o 32 MiB out
   check:   B=1 H=1 S=1; B=1 H=2 S=7; B=2 H=1 S=33; B=1 H=3 S=100; B=2 H=2 S=129; B=1 H=1 S=300
   q:       in  float[B*H*S*64] normal(0,1)
   k:       in  float[B*H*S*64] normal(0,1)
   v:       in  float[B*H*S*64]
   o:       out float[B*H*S*64]
   launch:  grid=cdiv(B*H*S,128) block=128
   flops:   4*B*H*S*S*64
   tol:     1e-4
*/
__global__ void attention_online_softmax(const float* q, const float* k, const float* v, float* o,
                                         int B, int H, int S)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;    // (b * H + h) * S + i
    if (row >= B * H * S)
        return;

    int bh = row / S;
    const float* qi = q + (size_t)row * HEAD_DIM;
    const float* kb = k + (size_t)bh * S * HEAD_DIM;
    const float* vb = v + (size_t)bh * S * HEAD_DIM;
    float scale = 1.0f / sqrtf((float)HEAD_DIM);

    float qs[HEAD_DIM];
    float acc[HEAD_DIM];
#pragma unroll
    for (int d = 0; d < HEAD_DIM; d++) {
        qs[d] = qi[d] * scale;
        acc[d] = 0.0f;
    }

    float m = -INFINITY;
    float l = 0.0f;
    for (int j = 0; j < S; j++) {
        const float* kj = kb + (size_t)j * HEAD_DIM;
        float s = 0.0f;
#pragma unroll
        for (int d = 0; d < HEAD_DIM; d++)
            s += qs[d] * kj[d];

        float m_new = fmaxf(m, s);
        float correction = expf(m - m_new);
        float p = expf(s - m_new);
        l = l * correction + p;

        const float* vj = vb + (size_t)j * HEAD_DIM;
#pragma unroll
        for (int d = 0; d < HEAD_DIM; d++)
            acc[d] = acc[d] * correction + p * vj[d];
        m = m_new;
    }

    float* oi = o + (size_t)row * HEAD_DIM;
#pragma unroll
    for (int d = 0; d < HEAD_DIM; d++)
        oi[d] = acc[d] / l;
}
