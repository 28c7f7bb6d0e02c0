// y = A x: y[r] = sum over c of A[r,c] * x[c]; A is rows x cols row-major, x has cols floats, y has rows floats.
#include <cstdio>
#include <cuda_runtime.h>

/* @optiml
   sizes:  rows=32768 cols=2048
   A:      in float[rows*cols]
   x:      in float[cols]
   y:      out float[rows]
   launch: grid=cdiv(rows,256) block=256
*/
__global__ void gemv_rowmajor(const float* A, const float* x, float* y, int rows, int cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        float sum = 0.0f;
        for (int c = 0; c < cols; c++) {
            sum += A[row * cols + c] * x[c];
        }
        y[row] = sum;
    }
}

int main()
{
    int rows = 32768;
    int cols = 2048;
    float *A, *x, *y;
    cudaMalloc(&A, rows * cols * sizeof(float));
    cudaMalloc(&x, cols * sizeof(float));
    cudaMalloc(&y, rows * sizeof(float));
    cudaMemset(A, 0, rows * cols * sizeof(float));
    cudaMemset(x, 0, cols * sizeof(float));

    int block = 256;
    int grid = (rows + block - 1) / block;
    gemv_rowmajor<<<grid, block>>>(A, x, y, rows, cols);
    cudaDeviceSynchronize();
    printf("gemv_rowmajor: %s\n", cudaGetErrorString(cudaGetLastError()));

    cudaFree(A);
    cudaFree(x);
    cudaFree(y);
    return 0;
}
