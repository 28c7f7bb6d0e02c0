// A[i][j] += alpha * x[i] * y[j]: the BLAS rank-1 update (sger) of an m x n row-major matrix by the outer product of x and y.
/* @optiml
   sizes:  m=8192 n=8192                # 256 MiB of A read and written, 2 x 32 KiB of vectors
   check:  m=1 n=1; m=3 n=5; m=100 n=33; m=2 n=1000
   x:      in    float[m]
   y:      in    float[n]
   A:      inout float[m*n]
   alpha:  0.75
   launch: grid=(cdiv(n,32),cdiv(m,8)) block=(32,8)
   flops:  3*m*n
*/
__global__ void sger(int m, int n, float alpha, const float* x, const float* y, float* A)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < m && col < n)
        A[(size_t)row * n + col] += alpha * x[row] * y[col];
}
