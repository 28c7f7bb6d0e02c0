// C[m][n] = sum_k A[k][m] * B[n][k], i.e. C = A^T B^T with A stored K x M and B stored N x K: KernelBench level 1's "Matmul with transposed both" (`torch.matmul(A.T, B.T)`) at its M = 1024, K = 4096, N = 2048 in fp32; one thread per output on a 2-D grid of 16 x 16 blocks (column n on x, row m on y), a plain k loop over global memory, the whole body inside one bounds test.

/* @optiml
   sizes:   M=1024 K=4096 N=2048        # A 16 MiB in, B 32 MiB in, C 8 MiB out; 17.2 GFLOP
   check:   M=1 K=1 N=1; M=3 K=5 N=7; M=17 K=16 N=33; M=33 K=100 N=17; M=16 K=1 N=50; M=40 K=31 N=64; M=1 K=257 N=3
   A:       in  float[K*M]
   B:       in  float[N*K]
   C:       out float[M*N]
   launch:  grid=(cdiv(N,16),cdiv(M,16)) block=(16,16)
   flops:   2*M*N*K
   tol:     1e-4
*/
__global__ void matmul_at_bt(const float* A, const float* B, float* C, int M, int K, int N)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;

    if (row < M && col < N) {
        float sum = 0.0f;
        for (int k = 0; k < K; k++)
            sum += A[k * M + row] * B[col * K + k];
        C[row * N + col] = sum;
    }
}
