// y[r,c] = x[r,0] + ... + x[r,c] (inclusive prefix sum along each row); x, y are rows x cols row-major, a few long rows.
#include <cstdio>
#include <cuda_runtime.h>

/* @optiml
   sizes:  rows=4 cols=4194304          # 64 MiB in, 64 MiB out
   check:  rows=1 cols=100003; rows=3 cols=1000; rows=2 cols=1; rows=1 cols=4097
   x:      in  float[rows*cols]
   y:      out float[rows*cols]
   launch: grid=cdiv(rows,32) block=32
   flops:  rows*cols
   tol:    1e-4                         # a parallel scan adds in another order
   atol:   1e-2                         # sums of up to 2^22 uniform values: rounding noise of the running total
*/
__global__ void prefix_sum_rows(const float* x, float* y, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        float sum = 0.0f;
        for (int c = 0; c < cols; ++c) {
            sum += x[r * cols + c];
            y[r * cols + c] = sum;
        }
    }
}

int main()
{
    int rows = 4;
    int cols = 4194304;
    float *x, *y;
    cudaMalloc(&x, rows * cols * sizeof(float));
    cudaMalloc(&y, rows * cols * sizeof(float));
    cudaMemset(x, 0, rows * cols * sizeof(float));

    int block = 32;
    int grid = (rows + block - 1) / block;
    prefix_sum_rows<<<grid, block>>>(x, y, rows, cols);
    cudaDeviceSynchronize();
    printf("prefix_sum_rows: %s\n", cudaGetErrorString(cudaGetLastError()));

    cudaFree(x);
    cudaFree(y);
    return 0;
}
