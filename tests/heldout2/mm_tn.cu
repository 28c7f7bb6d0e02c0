// C = A^T B: A is K x M, B is K x N, C is M x N, all row-major, one thread per output.
/* @optiml
   sizes:  M=2048 N=2048 K=2048
   check:  M=3 N=5 K=7; M=1 N=1 K=1; M=33 N=17 K=64
   A:      in  float[K*M]
   B:      in  float[K*N]
   C:      out float[M*N]
   launch: grid=(cdiv(N,16),cdiv(M,16)) block=(16,16)
   flops:  2*M*N*K
   tol:    1e-4
*/
__global__ void mm_tn(const float* A, const float* B, float* C, int M, int N, int K)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < M && col < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k) acc += A[k * M + row] * B[k * N + col];
        C[row * N + col] = acc;
    }
}
