// C = alpha * A * B + beta * C with all three matrices column-major (BLAS / cuBLAS storage): A is M x K with a leading dimension lda >= M (the top M rows of a taller buffer), B is K x N (ldb = K), C is M x N (ldc = M); one thread per element of C.
#define A(i, j) A[(i) + (size_t)(j) * lda]
#define B(i, j) B[(i) + (size_t)(j) * ldb]
#define C(i, j) C[(i) + (size_t)(j) * ldc]

/* @optiml
   sizes:  M=4096 N=2048 K=1024 lda=4224   # A 16.5 MiB (lda x K buffer), B 8 MiB, C 32 MiB read and written
   check:  M=1 N=1 K=1 lda=1; M=3 N=5 K=7 lda=4; M=33 N=17 K=65 lda=40; M=1 N=300 K=2 lda=3; M=130 N=1 K=129 lda=130
   A:      in    float[lda*K]
   B:      in    float[K*N]
   C:      inout float[M*N]
   ldb:    K
   ldc:    M
   alpha:  1.5
   beta:   0.5
   launch: grid=(cdiv(M,16),cdiv(N,16)) block=(16,16)
   flops:  2*M*N*K
   tol:    1e-4
*/
__global__ void sgemm_cm(int M, int N, int K, float alpha, const float* A, int lda, const float* B, int ldb,
                         float beta, float* C, int ldc)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;   // row of C
    int j = blockIdx.y * blockDim.y + threadIdx.y;   // column of C
    if (i < M && j < N) {
        float s = 0.0f;
        for (int l = 0; l < K; l++)
            s += A(i, l) * B(l, j);
        C(i, j) = alpha * s + beta * C(i, j);
    }
}
