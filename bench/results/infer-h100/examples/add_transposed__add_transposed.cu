// out = A + B^T: out[r,c] = A[r,c] + B[c,r]; A and out are rows x cols row-major, B is cols x rows row-major.
#include <cstdio>
#include <cuda_runtime.h>

/* @optiml
   sizes:  rows=4096 cols=8192
   A:      in float[rows*cols]
   B:      in float[rows*cols]
   out:    out float[rows*cols]
   launch: grid=(cdiv(cols,16),cdiv(rows,16)) block=(16,16)
*/
__global__ void add_transposed(const float* A, const float* B, float* out, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols) {
        out[row * cols + col] = A[row * cols + col] + B[col * rows + row];
    }
}

int main()
{
    int rows = 4096;
    int cols = 8192;
    float *A, *B, *out;
    cudaMalloc(&A, rows * cols * sizeof(float));
    cudaMalloc(&B, rows * cols * sizeof(float));
    cudaMalloc(&out, rows * cols * sizeof(float));
    cudaMemset(A, 0, rows * cols * sizeof(float));
    cudaMemset(B, 0, rows * cols * sizeof(float));

    dim3 block(16, 16);
    dim3 grid((cols + 15) / 16, (rows + 15) / 16);
    add_transposed<<<grid, block>>>(A, B, out, rows, cols);
    cudaDeviceSynchronize();
    printf("add_transposed: %s\n", cudaGetErrorString(cudaGetLastError()));

    cudaFree(A);
    cudaFree(B);
    cudaFree(out);
    return 0;
}
