// c = at^T b + bias (bias broadcast over rows) in fp32: at is K x M (A stored transposed), b is K x N, c is M x N,
// all row-major. fmaf accumulation, the factors in the other order, a loop without braces.

/* @optiml
   sizes:  M=1024 N=768 K=512
   check:  M=33 N=17 K=100; M=1 N=1 K=3; M=65 N=129 K=1; M=100 N=3 K=257
   at:     in  float[K*M]
   b:      in  float[K*N]
   bias:   in  float[N]
   c:      out float[M*N]
   launch: grid=(cdiv(N,16),cdiv(M,16)) block=(16,16)
   flops:  2*M*N*K
   tol:    1e-4
*/
__global__ void matmul_tn_bias(const float* at, const float* b, const float* bias, float* c, int M, int N, int K)
{
    const int j = blockDim.x * blockIdx.x + threadIdx.x;
    const int i = blockDim.y * blockIdx.y + threadIdx.y;
    if (i < M && j < N) {
        float s = 0.0f;
        for (int kk = 0; kk < K; ++kk)
            s = fmaf(b[N * kk + j], at[kk * M + i], s);
        c[i * N + j] = s + bias[j];
    }
}
