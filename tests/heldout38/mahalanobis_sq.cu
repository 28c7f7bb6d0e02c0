// dist[r] = (x_r - mu)^T P (x_r - mu) for each row x_r of a N x D table, mu a D-vector, P a D x D matrix (row-major): the squared Mahalanobis distance of embeddings to one Gaussian (`d = x - mu; ((d @ P) * d).sum(-1)`, P the precision matrix, the anomaly score of a Gaussian fitted to normal features as PaDiM-style detectors compute it), 262144 embeddings of D = 64; written in modern CUDA C++: a `template <int D>` kernel (`template: D=64`) with a `float diff[D]` register array filled under `#pragma unroll`, `const auto` row pointer from a `static_cast<size_t>` offset, brace initialisation of the accumulators, `__restrict__` on every pointer, a `__device__ __forceinline__` templated `fma_acc` helper, and the inner product `P d` formed one row of P at a time (`#pragma unroll 16`); one thread a row. Inputs `uniform(-1,1)` (P not made symmetric or definite: the form reads only its symmetric part, and the score can be negative).

template <typename T>
__device__ __forceinline__ T fma_acc(T acc, T a, T b)
{
    return acc + a * b;
}

/* @optiml
   sizes:    N=262144   # x 64 MiB in, dist 1 MiB out, mu 256 B, P 16 KiB; 2.2 GFLOP
   check:    N=1; N=2; N=127; N=129; N=1000; N=4097
   template: D=64
   x:        in  float[N*D]
   mu:       in  float[D]
   P:        in  float[D*D]
   dist:     out float[N]
   launch:   grid=cdiv(N,128) block=128
   flops:    N*(2*D*D+3*D)
   tol:      1e-5
*/
template <int D>
__global__ void mahalanobis_sq(const float* __restrict__ x, const float* __restrict__ mu,
                               const float* __restrict__ P, float* __restrict__ dist, int N)
{
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= N) return;

    const auto xr = x + static_cast<size_t>(row) * D;
    float diff[D];
#pragma unroll
    for (int k = 0; k < D; ++k) diff[k] = xr[k] - mu[k];

    float quad{0.0f};
    for (int i = 0; i < D; ++i) {
        float pd{0.0f};
#pragma unroll 16
        for (int j = 0; j < D; ++j) pd = fma_acc(pd, P[i * D + j], diff[j]);
        quad = fma_acc(quad, diff[i], pd);
    }
    dist[row] = quad;
}
