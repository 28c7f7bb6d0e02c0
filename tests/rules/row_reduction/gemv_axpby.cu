// y = alpha * A x + beta * y: the per-row store reads the element it replaces; A is m x n, row-major.
/* @optiml
   sizes:  m=16384 n=4096
   check:  m=37 n=1000; m=1 n=3; m=1000 n=1; m=257 n=129
   A:      in    float[m*n]
   x:      in    float[n]
   y:      inout float[m]
   alpha:  1.5
   beta:   -0.5
   launch: grid=cdiv(m,128) block=128
   tol:    1e-4
*/
__global__ void gemv_axpby(const float* A, const float* x, float* y, float alpha, float beta, int m, int n)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < m) {
        float dot = 0.0f;
        for (int k = 0; k < n; k++) {
            dot += A[k + r * n] * x[k];
        }
        y[r] = alpha * dot + beta * y[r];
    }
}
