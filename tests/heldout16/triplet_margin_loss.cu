// loss[0] += (1/B) * sum over rows b of max(||a_b - p_b + eps||_2 - ||a_b - n_b + eps||_2 + margin, 0): the triplet margin loss (F.triplet_margin_loss, p=2, eps=1e-6, swap=False, reduction="mean") over B triplets of D-vectors; loss must start at 0; one thread per triplet, one atomicAdd each.
#include <math.h>

/* @optiml
   sizes:    B=32768 D=1024             # 3 x 128 MiB in
   check:    B=1 D=1; B=3 D=5; B=37 D=1000; B=1000 D=3; B=2 D=4099
   anchor:   in    float[B*D]
   positive: in    float[B*D]
   negative: in    float[B*D]
   loss:     inout float[1] const(0)    # accumulator: zeroed before each run
   margin:   1.0
   eps:      1e-6
   launch:   grid=cdiv(B,256) block=256
   flops:    8*B*D
   tol:      1e-3                       # one fp32 atomic per triplet; d_ap - d_an cancels two distances of ~26
*/
__global__ void triplet_margin_loss(const float* __restrict__ anchor, const float* __restrict__ positive,
                                    const float* __restrict__ negative, float* __restrict__ loss,
                                    float margin, float eps, int B, int D)
{
    int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= B) return;

    long off = (long)b * D;
    float d_ap = 0.0f, d_an = 0.0f;
    for (int k = 0; k < D; ++k) {
        float a = anchor[off + k];
        float dp = a - positive[off + k] + eps;   // pairwise_distance adds eps to the difference
        float dn = a - negative[off + k] + eps;
        d_ap += dp * dp;
        d_an += dn * dn;
    }
    float l = fmaxf(sqrtf(d_ap) - sqrtf(d_an) + margin, 0.0f);
    atomicAdd(loss, l / B);
}
