// y[i] = 1 / (1 + exp(-x[i])) over n floats, written as a grid-stride loop.
#include <cuda_runtime.h>

/* @optiml
   sizes:  n=16777216
   x:      in float[n]
   y:      out float[n]
   launch: grid=1024 block=256
*/
__global__ void sigmoid_gridstride(const float* x, float* y, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)blockDim.x * gridDim.x) {
        y[i] = 1.0f / (1.0f + expf(-x[i]));
    }
}

int main()
{
    size_t n = 1 << 26;
    float *x, *y;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    sigmoid_gridstride<<<1024, 256>>>(x, y, n);
    cudaDeviceSynchronize();
    cudaFree(x);
    cudaFree(y);
    return 0;
}
