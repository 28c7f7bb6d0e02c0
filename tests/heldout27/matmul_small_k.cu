// C[i][j] = sum_k A[i][k] * B[k][j] with K = 32: KernelBench level 1's "Matmul with small K dimension" (`torch.matmul(A, B)`, A M x 32, B 32 x N) at M = 4096, N = 7680 in fp32, a product bound by writing its output; a grid-stride loop over the M * N outputs (grid capped at 1024 blocks of 256) with a size_t flat index split by / and % into row and column, __restrict__ on every pointer.

/* @optiml
   sizes:   M=4096 N=7680 K=32          # C 120 MiB out, A 0.5 MiB in, B 0.94 MiB in; 2.0 GFLOP
   check:   M=1 N=1 K=1; M=3 N=5 K=7; M=17 N=255 K=32; M=1 N=257 K=2; M=100 N=33 K=32; M=257 N=1031 K=3; M=64 N=64 K=33
   A:       in  float[M*K]
   B:       in  float[K*N]
   C:       out float[M*N]
   launch:  grid=min(cdiv(M*N,256),1024) block=256
   flops:   2*M*N*K
   tol:     1e-5
*/
__global__ void matmul_small_k(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                               int M, int N, int K)
{
    size_t total = (size_t)M * N;
    size_t stride = (size_t)gridDim.x * blockDim.x;

    for (size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x; idx < total; idx += stride) {
        size_t i = idx / N;
        size_t j = idx % N;
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
            acc += A[i * K + k] * B[(size_t)k * N + j];
        C[idx] = acc;
    }
}
