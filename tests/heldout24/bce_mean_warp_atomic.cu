// loss += (1 / n) * sum_i -(t[i] * max(log p[i], -100) + (1 - t[i]) * max(log(1 - p[i]), -100)): F.binary_cross_entropy(p, t) (mean, with PyTorch's clamp of the logs at -100) of 16 million probabilities against soft targets; one thread per element computing its term (0 past the end, so that every lane takes part), a __shfl_down_sync sum over the warp from offset 16, lane 0 adding the warp's sum divided by n into the scalar with one float atomicAdd.
#define FULL_MASK 0xffffffffu

/* @optiml
   sizes:   n=16777216                  # p, t 64 MiB each in, loss 4 B read and written
   check:   n=1; n=31; n=32; n=33; n=1000; n=4099; n=70001
   p:       in    float[n] uniform(0,1)
   t:       in    float[n] uniform(0,1)
   loss:    inout float[1] const(0)
   launch:  grid=cdiv(n,256) block=256
   flops:   8*n
   tol:     1e-3
*/
__global__ void bce_mean_warp_atomic(const float* p, const float* t, float* loss, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    float term = 0.0f;
    if (i < n) {
        float pi = p[i];
        float ti = t[i];
        float log_p = fmaxf(logf(pi), -100.0f);
        float log_1mp = fmaxf(logf(1.0f - pi), -100.0f);
        term = -(ti * log_p + (1.0f - ti) * log_1mp);
    }

    for (int offset = 16; offset > 0; offset >>= 1)
        term += __shfl_down_sync(FULL_MASK, term, offset);

    if ((threadIdx.x & 31) == 0)
        atomicAdd(loss, term / (float)n);
}
