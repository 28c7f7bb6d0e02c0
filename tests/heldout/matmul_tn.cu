// C = A^T * B: C[i,j] = sum over k of A[k,i] * B[k,j]; A is K x M, B is K x N, C is M x N, all row-major.
/* @optiml
   sizes:  M=4096 N=4096 K=4096         # 3 x 64 MiB, 137 GFLOP
   check:  M=33 N=17 K=100; M=1 N=1 K=3; M=65 N=129 K=1; M=100 N=3 K=257
   A:      in  float[K*M]
   B:      in  float[K*N]
   C:      out float[M*N]
   launch: grid=(cdiv(N,32),cdiv(M,8)) block=(32,8)
   flops:  2*M*N*K
   tol:    1e-4
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
