// dmin[i] = min over k < K of sum over d < DIM of (x[i][d] - cent[k][d])^2: each point's squared Euclidean distance to its nearest centroid (the k-means inertia term, DIM = 16 features); one thread per point, the point held in a local array, the feature count a template argument.
#include <cfloat>

/* @optiml
   sizes:    N=4194304 K=64             # 2^22 points x 16 floats: 256 MiB in, 16 MiB out, 4 KiB of centroids
   check:    N=1 K=1; N=7 K=3; N=1000 K=64; N=33 K=1; N=257 K=17
   template: DIM=16
   x:        in  float[N*DIM]
   cent:     in  float[K*DIM]
   dmin:     out float[N]
   launch:   grid=cdiv(N,256) block=256
   flops:    3*N*K*DIM
   tol:      1e-4
*/
template <int DIM>
__global__ void min_sqdist_to_centroids(const float* __restrict__ x, const float* __restrict__ cent,
                                        float* __restrict__ dmin, int N, int K)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= N)
        return;

    float p[DIM];
#pragma unroll
    for (int d = 0; d < DIM; ++d)
        p[d] = x[static_cast<size_t>(i) * DIM + d];

    float best = FLT_MAX;
    for (int k = 0; k < K; ++k) {
        const float* c = cent + k * DIM;
        float s = 0.0f;
#pragma unroll
        for (int d = 0; d < DIM; ++d) {
            const float t = p[d] - c[d];
            s += t * t;
        }
        best = fminf(best, s);
    }
    dmin[i] = best;
}

template __global__ void min_sqdist_to_centroids<16>(const float* __restrict__, const float* __restrict__,
                                                     float* __restrict__, int, int);
