// B[j][i] = A[i][j]: transpose of an m x n matrix A stored row-major with a leading dimension lda >= n (a pitched allocation) into a dense n x m matrix B.
#define A_AT(i, j) A[(size_t)(i) * lda + (j)]
#define B_AT(i, j) B[(size_t)(i) * m + (j)]

/* @optiml
   sizes:  m=8192 n=8000 lda=8064       # 8192 x 8064 floats of A (252 MiB; the 64-column padding, 0.8%, is never read), 250 MiB of B
   check:  m=1 n=1 lda=1; m=3 n=5 lda=8; m=17 n=31 lda=32; m=40 n=2 lda=3; m=2 n=100 lda=100
   A:      in  float[m*lda]
   B:      out float[n*m]
   launch: grid=(cdiv(n,32),cdiv(m,8)) block=(32,8)
*/
__global__ void transpose_lda(int m, int n, const float* A, int lda, float* B)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;   // column of A
    int i = blockIdx.y * blockDim.y + threadIdx.y;   // row of A
    if (i < m && j < n)
        B_AT(j, i) = A_AT(i, j);
}
