// C[i][j] = sum over k of A[i][k] * B[k][j]: a matrix product with a large inner dimension and a small output (torch.matmul(A, B), A of M x K, B of K x N, KernelBench level 1, 6_Matmul_with_large_K_dimension_); one thread per output, a 2-D grid, each thread walking all of K.
/* @optiml
   sizes:  M=256 N=256 K=131072         # A 128 MiB, B 128 MiB in, C 256 KiB out
   check:  M=1 N=1 K=1; M=3 N=5 K=7; M=2 N=3 K=4099; M=17 N=33 K=100; M=1 N=70 K=1000; M=40 N=1 K=257
   A:      in  float[M*K]
   B:      in  float[K*N]
   C:      out float[M*N]
   launch: grid=(cdiv(N,16),cdiv(M,16)) block=(16,16)
   flops:  2*M*N*K
   tol:    1e-4
*/
__global__ void matmul_large_k(const float* A, const float* B, float* C, int M, int N, int K)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;

    if (row < M && col < N) {
        float sum = 0.0f;
        for (int k = 0; k < K; k++) {
            sum += A[(long)row * K + k] * B[(long)k * N + col];
        }
        C[row * N + col] = sum;
    }
}
