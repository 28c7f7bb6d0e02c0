// y[r,:] = (x[r,:] - mean(x[r,:])) / sqrt(var(x[r,:]) + eps) for each row; x and y are rows x cols row-major (no gamma/beta).
#include <cstdio>
#include <cuda_runtime.h>

/* @optiml
   sizes:  rows=65536 cols=1024
   x:      in float[rows*cols]
   y:      out float[rows*cols]
   eps:    1e-05
   launch: grid=cdiv(rows,256) block=256
*/
__global__ void layernorm_rows(const float* x, float* y, float eps, int rows, int cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        float sum = 0.0f;
        for (int c = 0; c < cols; c++) {
            sum += x[row * cols + c];
        }
        float mean = sum / cols;

        float var = 0.0f;
        for (int c = 0; c < cols; c++) {
            float d = x[row * cols + c] - mean;
            var += d * d;
        }
        var = var / cols;

        float inv = 1.0f / sqrtf(var + eps);
        for (int c = 0; c < cols; c++) {
            y[row * cols + c] = (x[row * cols + c] - mean) * inv;
        }
    }
}

int main()
{
    int rows = 65536;
    int cols = 1024;
    float *x, *y;
    cudaMalloc(&x, rows * cols * sizeof(float));
    cudaMalloc(&y, rows * cols * sizeof(float));
    cudaMemset(x, 0, rows * cols * sizeof(float));

    int block = 256;
    int grid = (rows + block - 1) / block;
    layernorm_rows<<<grid, block>>>(x, y, 1e-5f, rows, cols);
    cudaDeviceSynchronize();
    printf("layernorm_rows: %s\n", cudaGetErrorString(cudaGetLastError()));

    cudaFree(x);
    cudaFree(y);
    return 0;
}
