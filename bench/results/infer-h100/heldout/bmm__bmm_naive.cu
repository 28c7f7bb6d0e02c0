/* @optiml
   sizes:  batch=128 M=128 N=128 K=128
   A:      in float[batch*M*K]
   B:      in float[batch*N*K]
   C:      out float[batch*M*N]
   launch: grid=(cdiv(N,16),cdiv(M,16),batch) block=(16,16,1)
*/
__global__ void bmm_naive(const float* A, const float* B, float* C, int batch, int M, int N, int K)
{
    int b = blockIdx.z;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (b < batch && i < M && j < N) {
        const float* a = A + (size_t)b * M * K;
        const float* bm = B + (size_t)b * K * N;
        float* c = C + (size_t)b * M * N;
        float sum = 0.0f;
        for (int k = 0; k < K; k++) {
            sum += a[i * K + k] * bm[k * N + j];
        }
        c[i * N + j] = sum;
    }
}
