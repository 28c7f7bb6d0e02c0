// out[c] = sum over r of x[r,c]; x is rows x cols row-major, out has cols floats.
#include <cstdio>
#include <cuda_runtime.h>

/* @optiml
   sizes:  rows=32768 cols=2048
   x:      in float[rows*cols]
   out:    out float[cols]
   launch: grid=cdiv(cols,256) block=256
*/
__global__ void col_sum(const float* x, float* out, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col < cols) {
        float sum = 0.0f;
        for (int r = 0; r < rows; r++) {
            sum += x[r * cols + col];
        }
        out[col] = sum;
    }
}

int main()
{
    int rows = 32768;
    int cols = 2048;
    float *x, *out;
    cudaMalloc(&x, rows * cols * sizeof(float));
    cudaMalloc(&out, cols * sizeof(float));
    cudaMemset(x, 0, rows * cols * sizeof(float));

    int block = 128;
    int grid = (cols + block - 1) / block;
    col_sum<<<grid, block>>>(x, out, rows, cols);
    cudaDeviceSynchronize();
    printf("col_sum: %s\n", cudaGetErrorString(cudaGetLastError()));

    cudaFree(x);
    cudaFree(out);
    return 0;
}
