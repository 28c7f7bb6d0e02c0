// O[b][h][m][n] = sum_k P[b][h][m][k] * V[b][k][n]: `torch.matmul(P, V)` with P [B, H, M, K] and V [B, 1, K, N] broadcast over the heads (multi-query attention's probabilities times its single shared value head, as in PaLM or Falcon), B = 2, H = 16, M = K = 512, N = 128, fp32; one thread per output on a 1-D launch, the int64_t flat index decoded by / and % into (n, m, h, b), early return, row pointer into P, V read down its column from the batch's matrix (the head index never touches V).
#include <cstdint>

/* @optiml
   sizes:   B=2 H=16 M=512 K=512 N=128   # P 32 MiB in, V 512 KiB in, O 8 MiB out; 4.3 GFLOP
   check:   B=1 H=1 M=1 K=1 N=1; B=2 H=3 M=5 K=7 N=4; B=1 H=4 M=17 K=33 N=16; B=3 H=2 M=2 K=64 N=65; B=1 H=5 M=9 K=3 N=257; B=2 H=1 M=31 K=10 N=9
   P:       in  float[B*H*M*K]
   V:       in  float[B*K*N]
   O:       out float[B*H*M*N]
   launch:  grid=cdiv(B*H*M*N,256) block=256
   flops:   2*B*H*M*N*K
   tol:     1e-4
*/
__global__ void matmul_broadcast_mqa(const float* P, const float* V, float* O, int B, int H, int M, int K, int N)
{
    int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    int64_t total = (int64_t)B * H * M * N;
    if (idx >= total)
        return;

    int n = (int)(idx % N);
    int m = (int)((idx / N) % M);
    int h = (int)((idx / ((int64_t)N * M)) % H);
    int b = (int)(idx / ((int64_t)N * M * H));

    const float* p = P + (((int64_t)b * H + h) * M + m) * K;
    const float* v = V + (int64_t)b * K * N + n;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
        acc += p[k] * v[(int64_t)k * N];
    O[idx] = acc;
}
