// C[m][n] = sum_k A[m][k] * B[k][n]: torch.matmul(A, B) in fp32 (KernelBench level 1's standard matrix multiplication, M = 2048, K = 4096, N = 4096); the textbook shared-memory tiled kernel: 16 x 16 thread blocks, one output element per thread, a 16 x 16 tile of A and one of B loaded into shared memory per step along K (zeros outside the matrices), __syncthreads() before and after the 16 multiply-adds.
#define TILE 16

/* @optiml
   sizes:   M=2048 K=4096 N=4096        # A 32 MiB and B 64 MiB in, C 32 MiB out
   check:   M=1 K=1 N=1; M=17 K=33 N=5; M=16 K=16 N=16; M=3 K=100 N=7; M=50 K=20 N=40; M=1 K=257 N=31; M=33 K=1 N=18
   A:       in  float[M*K]
   B:       in  float[K*N]
   C:       out float[M*N]
   launch:  grid=(cdiv(N,16),cdiv(M,16)) block=(16,16)
   flops:   2*M*N*K
   tol:     1e-4
*/
__global__ void matmul_tiled16(const float* A, const float* B, float* C, int M, int K, int N)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];

    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float sum = 0.0f;

    for (int t = 0; t < (K + TILE - 1) / TILE; t++) {
        int a_col = t * TILE + threadIdx.x;
        int b_row = t * TILE + threadIdx.y;
        if (row < M && a_col < K)
            As[threadIdx.y][threadIdx.x] = A[row * K + a_col];
        else
            As[threadIdx.y][threadIdx.x] = 0.0f;
        if (b_row < K && col < N)
            Bs[threadIdx.y][threadIdx.x] = B[b_row * N + col];
        else
            Bs[threadIdx.y][threadIdx.x] = 0.0f;
        __syncthreads();

        for (int k = 0; k < TILE; k++)
            sum += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }

    if (row < M && col < N)
        C[row * N + col] = sum;
}
