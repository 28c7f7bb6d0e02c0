// y[t][n] = sum over k of W[expert[t]][n][k] * x[t][k]: each token's activation times the weight matrix of the expert it was routed to (a top-1 mixture-of-experts linear layer without bias, E = 8 experts of N x K, nn.Linear layout); one thread per output, BLAS-style index macros named like the arrays.
#define X(t, k)    x[(long)(t) * K + (k)]
#define W(e, n, k) w[((long)(e) * N + (n)) * K + (k)]
#define Y(t, n)    y[(long)(t) * N + (n)]

/* @optiml
   sizes:  T=2048 N=1024 K=2048 E=8     # weights 64 MiB, tokens 16 MiB in, 8 MiB out
   check:  T=1 N=1 K=1 E=8; T=5 N=3 K=7 E=8; T=64 N=33 K=100 E=8; T=3 N=130 K=2 E=8; T=40 N=1 K=257 E=8
   x:      in  float[T*K]
   w:      in  float[E*N*K]
   expert: in  int[T] range(0,8)        # every size has E = 8
   y:      out float[T*N]
   launch: grid=(cdiv(N,128),T) block=128
   flops:  2*T*N*K
   tol:    1e-4
*/
__global__ void moe_expert_matvec(const float* x, const float* w, const int* expert, float* y, int T, int N, int K)
{
    int n = blockIdx.x * blockDim.x + threadIdx.x;
    int t = blockIdx.y;
    if (n >= N || t >= T)
        return;

    int e = expert[t];
    float acc = 0.0f;
    for (int k = 0; k < K; k++)
        acc += W(e, n, k) * X(t, k);
    Y(t, n) = acc;
}
