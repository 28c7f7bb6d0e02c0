// norm[j] = sum over i of |a[i][j]|, a is m x n row-major doubles.
/* @optiml
   sizes:  m=32768 n=1024
   check:  m=7 n=3; m=1 n=1; m=100 n=65
   a:      in  double[m*n]
   norm:   out double[n]
   launch: grid=cdiv(n,64) block=64
   flops:  2*m*n
*/
__global__ void col_l1norm(int m, int n, const double* a, double* norm)
{
    const int j = threadIdx.x + blockDim.x * blockIdx.x;
    if (j < n) {
        double acc = 0.0;
        for (int i = 0; i < m; i++)
            acc += fabs(a[(size_t)i * n + j]);
        norm[j] = acc;
    }
}
