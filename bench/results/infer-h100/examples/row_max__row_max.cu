// out[r] = max over c of x[r,c]; x is rows x cols row-major, out has rows floats.
#include <cstdio>
#include <cuda_runtime.h>

/* @optiml
   sizes:  rows=65536 cols=1024
   x:      in float[rows*cols]
   out:    out float[rows]
   launch: grid=cdiv(rows,256) block=256
*/
__global__ void row_max(const float* x, float* out, int rows, int cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        float m = x[row * cols];
        for (int c = 1; c < cols; c++) {
            float v = x[row * cols + c];
            if (v > m) {
                m = v;
            }
        }
        out[row] = m;
    }
}

int main()
{
    int rows = 65536;
    int cols = 1024;
    float *x, *out;
    cudaMalloc(&x, rows * cols * sizeof(float));
    cudaMalloc(&out, rows * sizeof(float));
    cudaMemset(x, 0, rows * cols * sizeof(float));

    int block = 256;
    int grid = (rows + block - 1) / block;
    row_max<<<grid, block>>>(x, out, rows, cols);
    cudaDeviceSynchronize();
    printf("row_max: %s\n", cudaGetErrorString(cudaGetLastError()));

    cudaFree(x);
    cudaFree(out);
    return 0;
}
