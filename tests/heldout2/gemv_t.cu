// y[n] = sum over k of A[k][n] * x[k]: y = A^T x with A stored K x N row-major.
/* @optiml
   sizes:  K=8192 N=8192
   check:  K=3 N=5; K=1 N=1; K=100 N=33
   A:      in  float[K*N]
   x:      in  float[K]
   y:      out float[N]
   launch: grid=cdiv(N,256) block=256
   flops:  2*K*N
   tol:    1e-4
*/
__global__ void gemv_t(const float* A, const float* x, float* y, int K, int N)
{
    int n = blockIdx.x * blockDim.x + threadIdx.x;
    if (n >= N) return;
    float sum = 0.0f;
    for (int k = 0; k < K; ++k) sum += A[k * N + n] * x[k];
    y[n] = sum;
}
