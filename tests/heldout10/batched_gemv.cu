// y[b][m] = sum over k of A[b][m][k] * x[b][k]: a batch of matrix-vector products, A is batch x M x K, x is batch x K, y is batch x M.
/* @optiml
   sizes:  batch=64 M=1024 K=1024       # 256 MiB of A, 256 KiB of x, 256 KiB of y
   check:  batch=1 M=1 K=1; batch=2 M=3 K=5; batch=3 M=33 K=100; batch=5 M=2 K=300
   A:      in  float[batch*M*K]
   x:      in  float[batch*K]
   y:      out float[batch*M]
   launch: grid=(cdiv(M,128),batch) block=128
   flops:  2*batch*M*K
   tol:    1e-4
*/
__global__ void batched_gemv(const float* __restrict__ A, const float* __restrict__ x, float* __restrict__ y,
                             int batch, int M, int K)
{
    int m = blockIdx.x * blockDim.x + threadIdx.x;
    int b = blockIdx.y;
    if (m >= M || b >= batch) return;
    const float* a_row = A + ((size_t)b * M + m) * K;
    const float* xb = x + (size_t)b * K;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) acc += a_row[k] * xb[k];
    y[(size_t)b * M + m] = acc;
}
