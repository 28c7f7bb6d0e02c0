// C = A * B^T in double: A is M x K, B is N x K, C is M x N, all row-major, one thread per output.
/* @optiml
   sizes:  M=2048 N=2048 K=2048         # 3 x 32 MiB of doubles
   check:  M=1 N=1 K=1; M=3 N=5 K=7; M=33 N=17 K=64; M=2 N=40 K=3
   A:      in  double[M*K]
   B:      in  double[N*K]
   C:      out double[M*N]
   launch: grid=(cdiv(N,16),cdiv(M,16)) block=(16,16)
   flops:  2*M*N*K
*/
__global__ void dgemm_nt(int M, int N, int K, const double* A, const double* B, double* C)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= M || j >= N)
        return;
    double sum = 0.0;
    for (int k = 0; k < K; ++k)
        sum += A[i * K + k] * B[j * K + k];
    C[i * N + j] = sum;
}
