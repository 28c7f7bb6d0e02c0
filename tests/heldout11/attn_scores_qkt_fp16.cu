// S[b][i][j] = scale * sum over t of Q[b][i][t] * K[b][j][t]: attention scores Q K^T per batch-head (a batched matmul with the second operand transposed); Q, K are batch x L x d halves, S is batch x L x L floats, fp32 accumulation.
#include <cuda_fp16.h>

/* @optiml
   sizes:  batch=64 L=512 d=64          # 2 x 4 MiB of halves in, 64 MiB of scores out
   check:  batch=1 L=1 d=1; batch=2 L=3 d=5; batch=3 L=33 d=64; batch=1 L=100 d=7
   Q:      in  half[batch*L*d]
   K:      in  half[batch*L*d]
   S:      out float[batch*L*L]
   scale:  0.125
   launch: grid=(cdiv(L,16),cdiv(L,16),batch) block=(16,16)
   flops:  2*batch*L*L*d
   tol:    1e-4
*/
__global__ void attn_scores_qkt(const __half* Q, const __half* K, float* S, float scale, int batch, int L, int d)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int b = blockIdx.z;
    if (i >= L || j >= L) return;
    const __half* q = Q + ((size_t)b * L + i) * d;
    const __half* k = K + ((size_t)b * L + j) * d;
    float acc = 0.0f;
    for (int t = 0; t < d; t++)
        acc += __half2float(q[t]) * __half2float(k[t]);
    S[((size_t)b * L + i) * L + j] = acc * scale;
}
