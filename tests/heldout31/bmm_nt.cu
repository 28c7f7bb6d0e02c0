// C[b][m][n] = sum_k A[b][m][k] * B[b][n][k]: `torch.bmm(A, B.transpose(1, 2))`, a batched product with the second operand transposed (KernelBench level 1's batched matmul, here "NT": both operands read along K), A [16, 1024, 512] by B [16, 2048, 512] -> C [16, 1024, 2048] fp32; one thread per output on a 3-D grid of (32, 8) blocks (n on x, m on y, the batch on z), one braced bounds if around the body, a `__device__` dot product of two K-long rows, `long` row offsets.

__device__ float dot_rows(const float* a, const float* b, int K)
{
    float s = 0.0f;
    for (int k = 0; k < K; k++)
        s += a[k] * b[k];
    return s;
}

/* @optiml
   sizes:   batch=16 M=1024 N=2048 K=512   # A 32 MiB in, B 64 MiB in, C 128 MiB out; 34.4 GFLOP
   check:   batch=1 M=1 N=1 K=1; batch=2 M=3 N=33 K=5; batch=1 M=9 N=7 K=64; batch=3 M=17 N=2 K=3; batch=1 M=1 N=65 K=31; batch=2 M=10 N=40 K=1
   A:       in  float[batch*M*K]
   B:       in  float[batch*N*K]
   C:       out float[batch*M*N]
   launch:  grid=(cdiv(N,32),cdiv(M,8),batch) block=(32,8)
   flops:   2*batch*M*N*K
   tol:     1e-4
*/
__global__ void bmm_nt(const float* A, const float* B, float* C, int batch, int M, int N, int K)
{
    int n = blockIdx.x * blockDim.x + threadIdx.x;
    int m = blockIdx.y * blockDim.y + threadIdx.y;
    int b = blockIdx.z;

    if (m < M && n < N) {
        const float* arow = A + ((long)b * M + m) * K;
        const float* brow = B + ((long)b * N + n) * K;
        C[((long)b * M + m) * N + n] = dot_rows(arow, brow, K);
    }
}
