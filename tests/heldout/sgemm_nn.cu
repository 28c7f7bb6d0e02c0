// C = alpha * A * B + beta * C in fp32, A is M x K, B is K x N, C is M x N, all row-major (BLAS-style NN gemm).
/* @optiml
   sizes:  M=2048 N=2048 K=2048         # 3 x 16 MiB, 17.2 GFLOP
   check:  M=33 N=17 K=100; M=1 N=1 K=3; M=65 N=129 K=1; M=100 N=3 K=257
   A:      in    float[M*K]
   B:      in    float[K*N]
   C:      inout float[M*N]
   alpha:  1.5
   beta:   0.5
   launch: grid=(cdiv(N,16),cdiv(M,16)) block=(16,16)
   flops:  2*M*N*K + 3*M*N
   tol:    1e-4
*/
__global__ void sgemm_nn(int M, int N, int K, float alpha, const float* A, const float* B, float beta, float* C)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
            acc += A[row * K + k] * B[k * N + col];
        C[row * N + col] = alpha * acc + beta * C[row * N + col];
    }
}
