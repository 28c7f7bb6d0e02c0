// C[p] = A[p]^T B[p] for p < batch: a strided batched product (cublasSgemmStridedBatched style, row-major) where each A[p] is stored K x M (so it is used transposed), B[p] is K x N and C[p] is M x N, batch p starting at p * strideA / strideB / strideC elements; one thread per element of C.
/* @optiml
   sizes:    batch=16 M=512 N=512 K=1024   # A 32 MiB, B 32 MiB in, C 16 MiB out
   check:    batch=1 M=1 N=1 K=1; batch=2 M=3 N=5 K=7; batch=3 M=17 N=33 K=65; batch=1 M=40 N=1 K=300; batch=5 M=1 N=20 K=2
   template: scalar_t=float
   A:        in  scalar_t[batch*K*M]
   B:        in  scalar_t[batch*K*N]
   C:        out scalar_t[batch*M*N]
   strideA:  K*M
   strideB:  K*N
   strideC:  M*N
   launch:   grid=(cdiv(N,16),cdiv(M,16),batch) block=(16,16)
   flops:    2*batch*M*N*K
   tol:      1e-4
*/
template <typename scalar_t>
__global__ void bmm_tn_strided(const scalar_t* A, long long strideA, const scalar_t* B, long long strideB,
                               scalar_t* C, long long strideC, int M, int N, int K)
{
    int n = blockIdx.x * blockDim.x + threadIdx.x;
    int m = blockIdx.y * blockDim.y + threadIdx.y;
    int p = blockIdx.z;
    if (m >= M || n >= N)
        return;

    const scalar_t* Ap = A + p * strideA;
    const scalar_t* Bp = B + p * strideB;
    scalar_t acc = 0;
    for (int k = 0; k < K; ++k)
        acc += Ap[(long long)k * M + m] * Bp[(long long)k * N + n];   // A[p][k][m]: column m of the stored K x M
    C[p * strideC + (long long)m * N + n] = acc;
}

template __global__ void bmm_tn_strided<float>(const float*, long long, const float*, long long, float*, long long,
                                               int, int, int);
