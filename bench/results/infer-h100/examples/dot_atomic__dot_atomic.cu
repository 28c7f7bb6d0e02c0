// result[0] += sum over i of a[i] * b[i] (dot product of two n-float vectors; result must start at 0).
#include <cstdio>
#include <cuda_runtime.h>

/* @optiml
   sizes:  n=16777216
   a:      in float[n]
   b:      in float[n]
   result: inout float[1] const(0)
   tol:    1e-2
   launch: grid=cdiv(n,256) block=256
*/
__global__ void dot_atomic(const float* a, const float* b, float* result, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(result, a[i] * b[i]);
    }
}

int main()
{
    int n = 1 << 25;
    float *a, *b, *result;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));
    cudaMalloc(&result, sizeof(float));
    cudaMemset(a, 0, n * sizeof(float));
    cudaMemset(b, 0, n * sizeof(float));
    cudaMemset(result, 0, sizeof(float));

    int block = 256;
    int grid = (n + block - 1) / block;
    dot_atomic<<<grid, block>>>(a, b, result, n);
    cudaDeviceSynchronize();
    printf("dot_atomic: %s\n", cudaGetErrorString(cudaGetLastError()));

    cudaFree(a);
    cudaFree(b);
    cudaFree(result);
    return 0;
}
