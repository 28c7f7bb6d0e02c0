// C[i][j] = sum_{i <= k <= j} A[i][k] * B[k][j] for j >= i, 0 below the diagonal: `torch.triu(torch.matmul(A, B))` of two upper triangular N x N matrices (KernelBench level 1's "matmul for upper triangular matrices", whose inputs are `torch.triu(torch.randn(N, N))`; only the upper triangles of A and B are read, the entries below their diagonals being zero by construction), N = 4096 fp32; one thread per output on a 1-D launch, the int64_t flat index split into (i, j) by / and %, early return, the lower triangle stored as zeros, the k loop bounded by the row and the column.
#include <cstdint>

/* @optiml
   sizes:   N=4096   # A, B 64 MiB in each, C 64 MiB out; 22.9 GFLOP (the triangle's k ranges)
   check:   N=1; N=2; N=7; N=17; N=33; N=45; N=70
   A:       in  float[N*N]
   B:       in  float[N*N]
   C:       out float[N*N]
   launch:  grid=cdiv(N*N,256) block=256
   flops:   N*(N+1)*(N+2)//3
   tol:     1e-4
*/
__global__ void triu_matmul(const float* A, const float* B, float* C, int N)
{
    int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= (int64_t)N * N)
        return;
    int i = (int)(idx / N);
    int j = (int)(idx % N);

    if (j < i) {
        C[idx] = 0.0f;
        return;
    }
    float acc = 0.0f;
    for (int k = i; k <= j; ++k)
        acc += A[(int64_t)i * N + k] * B[(int64_t)k * N + j];
    C[idx] = acc;
}
