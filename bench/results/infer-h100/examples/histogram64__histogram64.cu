// bins[k] += number of i with keys[i] == k, for n int keys in [0,64) and 64 unsigned-int bins (bins must start at 0).
#include <cstdio>
#include <cuda_runtime.h>

/* @optiml
   sizes:  n=16777216
   keys:   in int[n]
   bins:   inout unsigned int[128] const(0)  # adjust: its indices depend on the data or on no size: the most touched, rounded up
   launch: grid=cdiv(n,256) block=256
*/
__global__ void histogram64(const int* keys, unsigned int* bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(&bins[keys[i]], 1u);
    }
}

int main()
{
    int n = 1 << 26;
    int* keys;
    unsigned int* bins;
    cudaMalloc(&keys, n * sizeof(int));
    cudaMalloc(&bins, 64 * sizeof(unsigned int));
    cudaMemset(keys, 0, n * sizeof(int));
    cudaMemset(bins, 0, 64 * sizeof(unsigned int));

    int block = 256;
    int grid = (n + block - 1) / block;
    histogram64<<<grid, block>>>(keys, bins, n);
    cudaDeviceSynchronize();
    printf("histogram64: %s\n", cudaGetErrorString(cudaGetLastError()));

    cudaFree(keys);
    cudaFree(bins);
    return 0;
}
