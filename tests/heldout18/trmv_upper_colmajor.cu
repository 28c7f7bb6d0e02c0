// y[i] = sum over j >= i of A[i][j] * x[j]: the upper-triangular matrix-vector product of BLAS strmv (uplo = 'U', trans = 'N', diag = 'N', into a separate y) on a column-major n x n matrix with leading dimension lda; the strictly lower part is never read. One thread per row, Fortran-style names.
#define A(i, j) a[(i) + (size_t)(j) * lda]

/* @optiml
   sizes:  n=6144 lda=6160              # 144.4 MiB matrix (half of it read), 24 KiB of x in, 24 KiB out
   check:  n=1 lda=1; n=3 lda=5; n=33 lda=33; n=100 lda=128; n=257 lda=260
   a:      in  float[lda*n]
   x:      in  float[n]
   y:      out float[n]
   launch: grid=cdiv(n,128) block=128
   flops:  n*(n+1)
   tol:    1e-4
*/
extern "C" __global__ void strmv_un_kernel(int n, const float* a, int lda, const float* x, float* y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;

    float temp = 0.0f;
    for (int j = i; j < n; ++j)
        temp += A(i, j) * x[j];
    y[i] = temp;
}
