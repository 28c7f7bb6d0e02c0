// z = alpha * x + beta * y, element-wise over n doubles.
#include <cuda_runtime.h>

/* @optiml
   sizes:  n=16777216
   alpha:  2.5
   x:      in double[n]
   beta:   -0.75
   y:      in double[n]
   z:      out double[n]
   launch: grid=cdiv(n,512) block=512
*/
__global__ void daxpby(int n, double alpha, const double* x, double beta, const double* y, double* z)
{
    size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= (size_t)n) return;
    z[idx] = alpha * x[idx] + beta * y[idx];
}

int main()
{
    const int n = 1 << 24;
    double *x, *y, *z;
    cudaMalloc(&x, n * sizeof(double));
    cudaMalloc(&y, n * sizeof(double));
    cudaMalloc(&z, n * sizeof(double));
    daxpby<<<(n + 511) / 512, 512>>>(n, 2.5, x, -0.75, y, z);
    cudaDeviceSynchronize();
    cudaFree(x); cudaFree(y); cudaFree(z);
    return 0;
}
