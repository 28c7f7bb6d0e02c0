// B[i][j] = r[i] * A[i][j] * c[j], i.e. B = diag(r) * A * diag(c): row and column scaling (equilibration) of an m x n row-major matrix of doubles.
#define IDX2(i, j, ld) ((size_t)(i) * (ld) + (j))

/* @optiml
   sizes:  m=4096 n=4096                # 2^24 doubles: 128 MiB in, 128 MiB out, 2 x 32 KiB of scales
   check:  m=1 n=1; m=3 n=5; m=33 n=17; m=2 n=1000
   r:      in  double[m]
   A:      in  double[m*n]
   c:      in  double[n]
   B:      out double[m*n]
   launch: grid=(cdiv(n,32),cdiv(m,8)) block=(32,8)
   flops:  2*m*n
*/
__global__ void diag_scale(int m, int n, const double* r, const double* A, const double* c, double* B)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < m && j < n)
        B[IDX2(i, j, n)] = r[i] * A[IDX2(i, j, n)] * c[j];
}
