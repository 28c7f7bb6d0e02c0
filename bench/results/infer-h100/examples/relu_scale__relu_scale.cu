// y = scale * max(x, 0), element-wise over n floats.
#include <cstdio>
#include <cuda_runtime.h>

/* @optiml
   sizes:  n=16777216
   x:      in float[n]
   y:      out float[n]
   scale:  0.5
   launch: grid=cdiv(n,256) block=256
*/
__global__ void relu_scale(const float* x, float* y, float scale, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        if (v < 0.0f) {
            v = 0.0f;
        }
        y[i] = v * scale;
    }
}

int main()
{
    int n = 1 << 25;
    float *x, *y;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    cudaMemset(x, 0, n * sizeof(float));

    int block = 256;
    int grid = (n + block - 1) / block;
    relu_scale<<<grid, block>>>(x, y, 0.5f, n);
    cudaDeviceSynchronize();
    printf("relu_scale: %s\n", cudaGetErrorString(cudaGetLastError()));

    cudaFree(x);
    cudaFree(y);
    return 0;
}
