// C[b] = A[b] * B[b] for b < batch: C[b,i,j] = sum over k of A[b,i,k] * B[b,k,j]; A is batch x M x K, B is batch x K x N, C is batch x M x N, row-major.
/* @optiml
   sizes:  batch=16 M=512 N=512 K=1024  # 8.6 GFLOP
   check:  batch=3 M=33 N=17 K=100; batch=1 M=1 N=1 K=3; batch=2 M=65 N=129 K=1; batch=5 M=7 N=3 K=257
   A:      in  float[batch*M*K]
   B:      in  float[batch*K*N]
   C:      out float[batch*M*N]
   launch: grid=(cdiv(N,16),cdiv(M,16),batch) block=(16,16,1)
   flops:  2*batch*M*N*K
   tol:    1e-4
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
