// C = A * B^T in fp32: C[i,j] = sum over k of A[i,k] * B[j,k]; A is M x K, B is N x K, C is M x N, all row-major.
#include <cstdio>
#include <cuda_runtime.h>

/* @optiml
   sizes:  M=2048 N=2048 K=2048
   A:      in float[M*K]
   B:      in float[N*K]
   C:      out float[M*N]
   launch: grid=(cdiv(N,16),cdiv(M,16)) block=(16,16)
*/
__global__ void sgemm_nt(const float* A, const float* B, float* C, int M, int N, int K)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < M && j < N) {
        float sum = 0.0f;
        for (int k = 0; k < K; k++) {
            sum += A[i * K + k] * B[j * K + k];
        }
        C[i * N + j] = sum;
    }
}

int main()
{
    int M = 2048, N = 2048, K = 2048;
    float *A, *B, *C;
    cudaMalloc(&A, M * K * sizeof(float));
    cudaMalloc(&B, N * K * sizeof(float));
    cudaMalloc(&C, M * N * sizeof(float));
    cudaMemset(A, 0, M * K * sizeof(float));
    cudaMemset(B, 0, N * K * sizeof(float));

    dim3 block(16, 16);
    dim3 grid((N + 15) / 16, (M + 15) / 16);
    sgemm_nt<<<grid, block>>>(A, B, C, M, N, K);
    cudaDeviceSynchronize();
    printf("sgemm_nt: %s\n", cudaGetErrorString(cudaGetLastError()));

    cudaFree(A);
    cudaFree(B);
    cudaFree(C);
    return 0;
}
