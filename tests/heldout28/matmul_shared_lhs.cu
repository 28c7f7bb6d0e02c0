// C[b][m][n] = sum_k A[m][k] * B[b][k][n]: `torch.matmul(A, B)` with a 2-D A broadcast over the batch of a 3-D B (one weight applied to a batch of matrices; the mirror of KernelBench level 1's 10_3D_tensor_matrix_multiplication, whose shared matrix is on the right), A 512 x 512, B [8, 512, 1024], fp32; one thread per output on a 2-D grid of 16 x 16 blocks, the batch folded into the row index (r = b * M + m, split by / and %), the whole body inside one bounds if, B read down its column through a per-batch pointer, an unbraced k loop.

/* @optiml
   sizes:   batch=8 M=512 K=512 N=1024   # A 1 MiB in, B 16 MiB in, C 16 MiB out; 4.3 GFLOP
   check:   batch=1 M=1 K=1 N=1; batch=2 M=3 K=5 N=7; batch=3 M=17 K=8 N=16; batch=1 M=5 K=33 N=40; batch=5 M=1 K=2 N=3; batch=2 M=6 K=64 N=17
   A:       in  float[M*K]
   B:       in  float[batch*K*N]
   C:       out float[batch*M*N]
   launch:  grid=(cdiv(N,16),cdiv(batch*M,16)) block=(16,16)
   flops:   2*batch*M*N*K
   tol:     1e-4
*/
__global__ void matmul_shared_lhs(const float* A, const float* B, float* C, int batch, int M, int K, int N)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (col < N && r < batch * M) {
        int b = r / M;
        int m = r % M;
        const float* Bb = B + (size_t)b * K * N;
        float acc = 0;
        for (int k = 0; k < K; ++k)
            acc += A[m * K + k] * Bb[(size_t)k * N + col];
        C[(size_t)r * N + col] = acc;
    }
}
