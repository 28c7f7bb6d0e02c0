// C[m][n] = sum_k A[m][k] * B[k][n]: `torch.matmul(A, B)` with irregular shapes that are multiples of no tile size (KernelBench level 1's "matmul with irregular shapes", M = 8205, K = 2949, N = 5921) fp32, both operands and the product row-major; one thread per output on a 2-D grid of 16 x 16 blocks (n on x, m on y), the block edge as an anonymous `enum`, early return, `size_t` offsets, the k loop down a column of B, __restrict__ on every pointer.

enum { BLOCK_DIM = 16 };

/* @optiml
   sizes:   M=8205 K=2949 N=5921   # A 92.3 MiB in, B 66.6 MiB in, C 185.3 MiB out; 286.5 GFLOP
   check:   M=1 K=1 N=1; M=17 K=33 N=19; M=3 K=1 N=129; M=35 K=7 N=2; M=1 K=100 N=17; M=20 K=5 N=31
   A:       in  float[M*K]
   B:       in  float[K*N]
   C:       out float[M*N]
   launch:  grid=(cdiv(N,16),cdiv(M,16)) block=(16,16)
   flops:   2*M*K*N
   tol:     1e-4
*/
__global__ void matmul_irregular(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                                 int M, int K, int N)
{
    int col = blockIdx.x * BLOCK_DIM + threadIdx.x;
    int row = blockIdx.y * BLOCK_DIM + threadIdx.y;
    if (row >= M || col >= N) return;

    float sum = 0.0f;
    for (int k = 0; k < K; ++k)
        sum += A[(size_t)row * K + k] * B[(size_t)k * N + col];
    C[(size_t)row * N + col] = sum;
}
