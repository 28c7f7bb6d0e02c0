// Ct[n][m] = sum_k A[m][k] * B[k][n]: `torch.matmul(A, B).t().contiguous()`, a product stored transposed (N x M, column-major C), as a layer whose consumer wants feature-major activations; A 2048 x 1024, B 1024 x 1024, fp32; one thread per output on a 2-D grid of 16 x 16 blocks with m on x so the stores along a row of Ct are contiguous, both operands read with a stride (A along its row per thread, B down a column), the whole body inside one braced bounds if, __restrict__ on every pointer.

/* @optiml
   sizes:   M=2048 K=1024 N=1024   # A 8 MiB in, B 4 MiB in, Ct 8 MiB out; 4.3 GFLOP
   check:   M=1 K=1 N=1; M=3 K=5 N=7; M=17 K=16 N=33; M=40 K=3 N=2; M=1 K=64 N=20; M=33 K=9 N=1
   A:       in  float[M*K]
   B:       in  float[K*N]
   Ct:      out float[N*M]
   launch:  grid=(cdiv(M,16),cdiv(N,16)) block=(16,16)
   flops:   2*M*N*K
   tol:     1e-4
*/
__global__ void matmul_out_transposed(const float* __restrict__ A, const float* __restrict__ B,
                                      float* __restrict__ Ct, int M, int K, int N)
{
    const int m = blockIdx.x * blockDim.x + threadIdx.x;
    const int n = blockIdx.y * blockDim.y + threadIdx.y;
    if (m < M && n < N) {
        float sum = 0.0f;
        for (int k = 0; k < K; k++) {
            sum += A[(size_t)m * K + k] * B[(size_t)k * N + n];
        }
        Ct[(size_t)n * M + m] = sum;
    }
}
