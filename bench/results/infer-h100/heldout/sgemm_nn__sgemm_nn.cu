/* @optiml
   sizes:  M=1024 N=1024 K=1024
   alpha:  0.5
   A:      in float[M*K]
   B:      in float[N*K]
   beta:   0.5
   C:      inout float[M*N]
   launch: grid=(cdiv(N,16),cdiv(M,16)) block=(16,16)
*/
__global__ void sgemm_nn(int M, int N, int K, float alpha, const float* A, const float* B, float beta, float* C)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
            acc += A[row * K + k] * B[k * N + col];
        C[row * N + col] = alpha * acc + beta * C[row * N + col];
    }
}
