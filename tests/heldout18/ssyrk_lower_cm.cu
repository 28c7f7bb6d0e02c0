// C(i,j) = alpha * sum over l of A(i,l) * A(j,l) + beta * C(i,j) for i >= j, the strict upper triangle left untouched: BLAS ssyrk (uplo = 'L', trans = 'N') on column-major storage, A n x k with leading dimension lda, C n x n with ldc; one thread per element of C with the row on threadIdx.x, threads above the diagonal returning at once, cuBLAS's IDX2C macro.
#define IDX2C(i, j, ld) (((j) * (ld)) + (i))

/* @optiml
   sizes:  n=4096 k=2048 lda=4100 ldc=4104   # A 32 MiB in, C 64 MiB read and written
   check:  n=1 k=1 lda=1 ldc=1; n=3 k=5 lda=4 ldc=3; n=17 k=33 lda=17 ldc=20; n=40 k=1 lda=41 ldc=40; n=65 k=100 lda=65 ldc=65
   A:      in    float[lda*k]
   C:      inout float[ldc*n]
   alpha:  1.5
   beta:   0.5
   launch: grid=(cdiv(n,16),cdiv(n,16)) block=(16,16)
   flops:  n*(n+1)*k
   tol:    1e-4
*/
__global__ void ssyrk_ln(int n, int k, float alpha, const float* A, int lda, float beta, float* C, int ldc)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;   // row of C
    int j = blockIdx.y * blockDim.y + threadIdx.y;   // column of C
    if (i >= n || j >= n || i < j)
        return;

    float sum = 0.0f;
    for (int l = 0; l < k; ++l)
        sum += A[IDX2C(i, l, lda)] * A[IDX2C(j, l, lda)];
    C[IDX2C(i, j, ldc)] = alpha * sum + beta * C[IDX2C(i, j, ldc)];
}
