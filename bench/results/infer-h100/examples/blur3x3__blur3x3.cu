// out[r,c] = mean of the 3x3 neighbourhood of img[r,c], neighbours outside the image clamped to the nearest edge pixel; img and out are rows x cols row-major.
#include <cstdio>
#include <cuda_runtime.h>

/* @optiml
   sizes:  rows=8192 cols=8192
   img:    in float[rows*cols]
   out:    out float[rows*cols]
   launch: grid=(cdiv(cols,16),cdiv(rows,16)) block=(16,16)
*/
__global__ void blur3x3(const float* img, float* out, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols) {
        float sum = 0.0f;
        for (int dr = -1; dr <= 1; dr++) {
            for (int dc = -1; dc <= 1; dc++) {
                int r = row + dr;
                int c = col + dc;
                if (r < 0) r = 0;
                if (r > rows - 1) r = rows - 1;
                if (c < 0) c = 0;
                if (c > cols - 1) c = cols - 1;
                sum += img[r * cols + c];
            }
        }
        out[row * cols + col] = sum / 9.0f;
    }
}

int main()
{
    int rows = 8192;
    int cols = 8192;
    float *img, *out;
    cudaMalloc(&img, rows * cols * sizeof(float));
    cudaMalloc(&out, rows * cols * sizeof(float));
    cudaMemset(img, 0, rows * cols * sizeof(float));

    dim3 block(16, 16);
    dim3 grid((cols + 15) / 16, (rows + 15) / 16);
    blur3x3<<<grid, block>>>(img, out, rows, cols);
    cudaDeviceSynchronize();
    printf("blur3x3: %s\n", cudaGetErrorString(cudaGetLastError()));

    cudaFree(img);
    cudaFree(out);
    return 0;
}
