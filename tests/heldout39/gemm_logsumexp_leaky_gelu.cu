// out[b] = gelu(gelu(leaky(leaky(log(sum_j exp(z[b][j])))))) with z = x @ weight^T + bias, leaky(v) = max(v, 0.01 v) and the erf GELU: KernelBench level 2's Gemm_LogSumExp_LeakyReLU_LeakyReLU_GELU_GELU (`x = self.linear(x); x = torch.logsumexp(x, dim=1, keepdim=True)`, two `F.leaky_relu(x, 0.01)`, two `F.gelu(x)`) with nn.Linear(8192, 8192) on a [1024, 8192] batch, fp32; one block of 256 threads a row: the row's 8192 products computed by a strided loop into a dynamic shared-memory buffer (`extern __shared__ float z[]`, `smem=4*N`), then a `__shared__` tree for the row maximum and a second tree for the sum of exponentials, `#define THREADS 256`, `size_t` row offsets, two small `__device__` helpers, thread 0 finishing the scalar chain; x `uniform(0,1)` (`torch.rand`), weight and bias `uniform(-0.011,0.011)` (nn.Linear's bound 1/sqrt(8192)).

#define THREADS 256

__device__ float leaky_relu_001(float v)
{
    return v > 0.0f ? v : 0.01f * v;
}

__device__ float gelu_erf(float v)
{
    return 0.5f * v * (1.0f + erff(v * 0.70710678118654752f));
}

/* @optiml
   sizes:   B=1024 K=8192 N=8192   # x 32 MiB, weight 256 MiB, bias 32 KiB in, out 4 KiB; 137.5 GFLOP
   check:   B=1 K=1 N=1; B=3 K=5 N=7; B=2 K=64 N=255; B=5 K=33 N=257; B=17 K=100 N=1000; B=4 K=7 N=3000; B=2 K=301 N=513
   x:       in  float[B*K] uniform(0,1)
   weight:  in  float[N*K] uniform(-0.011,0.011)
   bias:    in  float[N] uniform(-0.011,0.011)
   out:     out float[B]
   launch:  grid=B block=256 smem=4*N
   flops:   2*B*N*K + 3*B*N
   tol:     1e-5
*/
__global__ void gemm_logsumexp_leaky_gelu(const float* x, const float* weight, const float* bias, float* out,
                                          int B, int K, int N)
{
    extern __shared__ float z[];          // the row of the product, N floats
    __shared__ float red[THREADS];

    int row = blockIdx.x;
    int tid = threadIdx.x;
    const float* xr = x + (size_t)row * K;

    // the row of x @ weight^T + bias, and this thread's maximum of it
    float m = -INFINITY;
    for (int j = tid; j < N; j += THREADS) {
        const float* wr = weight + (size_t)j * K;
        float acc = 0.0f;
        for (int k = 0; k < K; k++)
            acc += xr[k] * wr[k];
        acc += bias[j];
        z[j] = acc;
        m = fmaxf(m, acc);
    }
    red[tid] = m;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (tid < s)
            red[tid] = fmaxf(red[tid], red[tid + s]);
        __syncthreads();
    }
    float rowmax = red[0];
    __syncthreads();

    // sum of exp(z - max)
    float sum = 0.0f;
    for (int j = tid; j < N; j += THREADS)
        sum += expf(z[j] - rowmax);
    red[tid] = sum;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (tid < s)
            red[tid] += red[tid + s];
        __syncthreads();
    }

    if (tid == 0) {
        float v = rowmax + logf(red[0]);
        v = leaky_relu_001(v);
        v = leaky_relu_001(v);
        v = gelu_erf(v);
        v = gelu_erf(v);
        out[row] = v;
    }
}
