// loss = (1 / B) sum_b max(0, 1 + d(a_b, p_b) - min(d(a_b, n_b), d(p_b, n_b))), d(u, v) = ||u - v + 1e-6||_2: `F.triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=True)` (mean; KernelBench level 1's TripletMarginLoss, here with the distance swap of Balntas et al.) over 4096 face-embedding triplets of 512 floats; one thread per triplet on a 1-D launch, early return, a `__device__` helper for PyTorch's pairwise distance (eps added to the difference) called three times on row pointers, #define MARGIN and EPS, `int64_t` row offsets, __restrict__ on the inputs, one atomicAdd of the row's loss / B into a zero-initialised scalar.
#include <cstdint>

#define MARGIN 1.0f
#define EPS 1e-6f

__device__ float pair_dist(const float* __restrict__ u, const float* __restrict__ v, int D)
{
    float s = 0.0f;
    for (int k = 0; k < D; ++k) {
        float d = u[k] - v[k] + EPS;
        s += d * d;
    }
    return sqrtf(s);
}

/* @optiml
   sizes:   B=4096 D=512   # anchor, positive, negative 8 MiB in each; 25 MFLOP
   check:   B=1 D=1; B=2 D=3; B=7 D=64; B=129 D=5; B=300 D=2; B=33 D=17
   anchor:    in  float[B*D]
   positive:  in  float[B*D]
   negative:  in  float[B*D]
   loss:      inout float[1] const(0)
   launch:    grid=cdiv(B,128) block=128
   flops:     12*B*D
   tol:       1e-4
*/
__global__ void triplet_margin_swap(const float* __restrict__ anchor, const float* __restrict__ positive,
                                    const float* __restrict__ negative, float* loss, int B, int D)
{
    int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= B) return;
    const float* a = anchor + (int64_t)b * D;
    const float* p = positive + (int64_t)b * D;
    const float* n = negative + (int64_t)b * D;

    float d_ap = pair_dist(a, p, D);
    float d_an = pair_dist(a, n, D);
    float d_pn = pair_dist(p, n, D);
    float d_neg = fminf(d_an, d_pn);
    float l = fmaxf(MARGIN + d_ap - d_neg, 0.0f);
    atomicAdd(loss, l / B);
}
