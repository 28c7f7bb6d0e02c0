// y[m][n] = gelu_tanh(b[n] + sum_k x[m][k] * W[n][k]), gelu_tanh(v) = 0.5 v (1 + tanh(sqrt(2/pi) (v + 0.044715 v^3))): `F.gelu(F.linear(x, W, b), approximate="tanh")` (KernelBench level 2's Gemm + GELU family, here with the tanh approximation as build-nanogpt's MLP applies it after `c_fc`, 768 -> 3072 over 8 x 1024 tokens) fp32, W in nn.Linear's [out][in] layout; one thread per output on a 2-D grid of 16 x 16 blocks (n on x, m on y), early return, row pointers into x and W, `size_t` offsets, a `__device__ __forceinline__` GELU with #define constants, __restrict__ on every pointer.

#define SQRT_2_OVER_PI 0.7978845608028654f
#define GELU_COEF 0.044715f

__device__ __forceinline__ float gelu_tanh(float v)
{
    const float inner = SQRT_2_OVER_PI * (v + GELU_COEF * v * v * v);
    return 0.5f * v * (1.0f + tanhf(inner));
}

/* @optiml
   sizes:   M=8192 K=768 N=3072   # x 24 MiB in, W 9 MiB in, b 12 KiB in, y 96 MiB out; 38.9 GFLOP
   check:   M=1 K=1 N=1; M=17 K=33 N=19; M=3 K=1 N=129; M=35 K=7 N=2; M=1 K=100 N=17; M=20 K=768 N=31
   x:       in  float[M*K]
   W:       in  float[N*K] uniform(-0.036,0.036)
   b:       in  float[N] uniform(-0.036,0.036)
   y:       out float[M*N]
   launch:  grid=(cdiv(N,16),cdiv(M,16)) block=(16,16)
   flops:   2*M*K*N + 10*M*N
   tol:     1e-4
*/
__global__ void linear_gelu_tanh(const float* __restrict__ x, const float* __restrict__ W,
                                 const float* __restrict__ b, float* __restrict__ y, int M, int K, int N)
{
    const int n = blockIdx.x * blockDim.x + threadIdx.x;
    const int m = blockIdx.y * blockDim.y + threadIdx.y;
    if (m >= M || n >= N)
        return;

    const float* xr = x + (size_t)m * K;
    const float* wr = W + (size_t)n * K;
    float acc = b[n];
    for (int k = 0; k < K; ++k)
        acc += xr[k] * wr[k];
    y[(size_t)m * N + n] = gelu_tanh(acc);
}
