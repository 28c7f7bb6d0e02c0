// out[r,c] = max of img[2r..2r+1, 2c..2c+1] (2x2 max pool, stride 2); img is rows x cols row-major, out is cdiv(rows,2) x cdiv(cols,2) row-major, windows on an odd last row/column are cut to the pixels that exist.
#include <cstdio>
#include <cuda_runtime.h>

/* @optiml
   sizes:  rows=8192 cols=8192
   img:    in float[rows*cols]
   out:    out float[cdiv(rows,2)*cdiv(cols,2)]
   launch: grid=(cdiv((cols+1)/2,16),cdiv((rows+1)/2,16)) block=(16,16)
*/
__global__ void maxpool2x2(const float* img, float* out, int rows, int cols)
{
    int out_rows = (rows + 1) / 2;
    int out_cols = (cols + 1) / 2;
    int oc = blockIdx.x * blockDim.x + threadIdx.x;
    int orow = blockIdx.y * blockDim.y + threadIdx.y;
    if (orow < out_rows && oc < out_cols) {
        int r = 2 * orow;
        int c = 2 * oc;
        float m = img[r * cols + c];
        if (c + 1 < cols && img[r * cols + c + 1] > m) {
            m = img[r * cols + c + 1];
        }
        if (r + 1 < rows && img[(r + 1) * cols + c] > m) {
            m = img[(r + 1) * cols + c];
        }
        if (r + 1 < rows && c + 1 < cols && img[(r + 1) * cols + c + 1] > m) {
            m = img[(r + 1) * cols + c + 1];
        }
        out[orow * out_cols + oc] = m;
    }
}

int main()
{
    int rows = 8192;
    int cols = 8192;
    int out_rows = (rows + 1) / 2;
    int out_cols = (cols + 1) / 2;
    float *img, *out;
    cudaMalloc(&img, rows * cols * sizeof(float));
    cudaMalloc(&out, out_rows * out_cols * sizeof(float));
    cudaMemset(img, 0, rows * cols * sizeof(float));

    dim3 block(16, 16);
    dim3 grid((out_cols + 15) / 16, (out_rows + 15) / 16);
    maxpool2x2<<<grid, block>>>(img, out, rows, cols);
    cudaDeviceSynchronize();
    printf("maxpool2x2: %s\n", cudaGetErrorString(cudaGetLastError()));

    cudaFree(img);
    cudaFree(out);
    return 0;
}
