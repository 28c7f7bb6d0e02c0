// C[n][m][l] = sum over k of A[n][m][k] * B[k][l]: a 3-D tensor times a matrix (torch.matmul(A, B) with A of N x M x K and B of K x L, KernelBench level 1, 10_3D_tensor_matrix_multiplication); one thread per output, a 3-D grid whose z axis is the batch.
/* @optiml
   sizes:  N=16 M=1024 K=2048 L=768     # A 128 MiB, B 6 MiB in, C 48 MiB out
   check:  N=1 M=1 K=1 L=1; N=2 M=3 K=5 L=7; N=3 M=17 K=33 L=9; N=1 M=40 K=100 L=65; N=4 M=2 K=300 L=1
   A:      in  float[N*M*K]
   B:      in  float[K*L]
   C:      out float[N*M*L]
   launch: grid=(cdiv(L,16),cdiv(M,16),N) block=(16,16)
   flops:  2*N*M*K*L
   tol:    1e-4
*/
__global__ void tensor3d_matrix_mul(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                                    int N, int M, int K, int L)
{
    int l = blockIdx.x * blockDim.x + threadIdx.x;
    int m = blockIdx.y * blockDim.y + threadIdx.y;
    int n = blockIdx.z;
    if (n < N && m < M && l < L) {
        const float* a = A + ((size_t)n * M + m) * K;
        float sum = 0.0f;
        for (int k = 0; k < K; ++k)
            sum += a[k] * B[(size_t)k * L + l];
        C[((size_t)n * M + m) * L + l] = sum;
    }
}
