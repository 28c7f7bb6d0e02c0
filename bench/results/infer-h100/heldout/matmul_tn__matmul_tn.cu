/* @optiml
   sizes:  M=1024 N=1024 K=1024
   A:      in float[M*K]
   B:      in float[N*K]
   C:      out float[M*N]
   launch: grid=(cdiv(N,16),cdiv(M,16)) block=(16,16)
*/
__global__ void matmul_tn(const float* A, const float* B, float* C, int M, int N, int K)
{
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= M || j >= N) return;
    float s = 0;
    for (int k = 0; k < K; k++) {
        s += A[k * M + i] * B[k * N + j];
    }
    C[i * N + j] = s;
}
