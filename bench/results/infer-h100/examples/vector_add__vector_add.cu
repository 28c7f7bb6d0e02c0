// c = a + b, element-wise over n floats.
#include <cstdio>
#include <cuda_runtime.h>

/* @optiml
   sizes:  n=16777216
   a:      in float[n]
   b:      in float[n]
   c:      out float[n]
   launch: grid=cdiv(n,256) block=256
*/
__global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}

int main()
{
    int n = 1 << 25;
    float *a, *b, *c;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));
    cudaMalloc(&c, n * sizeof(float));
    cudaMemset(a, 0, n * sizeof(float));
    cudaMemset(b, 0, n * sizeof(float));

    int block = 256;
    int grid = (n + block - 1) / block;
    vector_add<<<grid, block>>>(a, b, c, n);
    cudaDeviceSynchronize();
    printf("vector_add: %s\n", cudaGetErrorString(cudaGetLastError()));

    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    return 0;
}
