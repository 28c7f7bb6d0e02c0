// w[o][k] = g[o] * v[o][k] / sqrt(sum_k v[o][k]^2): the weight that `nn.utils.weight_norm` recomputes before each forward (`torch._weight_norm(v, g, dim=0)`, g / ||v|| per output row) for a [4096, 3840] fp32 weight; one block of 256 per row, a strided sum of squares per thread, __shfl_down_sync within each warp, the eight warp sums in __shared__ float warp_sum[8] added by the first warp, the row's scale g / norm broadcast through a __shared__ float, then a strided write.
#define THREADS 256
#define WARPS (THREADS / 32)
#define FULL_MASK 0xffffffffu

/* @optiml
   sizes:   O=4096 K=3840               # v 60 MiB in, w 60 MiB out, g 16 KiB in
   check:   O=1 K=1; O=2 K=7; O=3 K=31; O=1 K=32; O=5 K=33; O=2 K=255; O=3 K=256; O=4 K=257; O=2 K=1000; O=37 K=64
   v:       in  float[O*K]
   g:       in  float[O] uniform(0.5,2)
   w:       out float[O*K]
   launch:  grid=O block=256
   flops:   3*O*K
   tol:     1e-5
*/
__global__ void weight_norm_rows(const float* v, const float* g, float* w, int O, int K)
{
    __shared__ float warp_sum[WARPS];
    __shared__ float row_scale;

    int row = blockIdx.x;
    int tid = threadIdx.x;
    int lane = tid & 31;
    int warp = tid >> 5;
    const float* vr = v + (size_t)row * K;
    float* wr = w + (size_t)row * K;

    float ss = 0.0f;
    for (int k = tid; k < K; k += THREADS) {
        float a = vr[k];
        ss += a * a;
    }
    for (int off = 16; off > 0; off >>= 1)
        ss += __shfl_down_sync(FULL_MASK, ss, off);
    if (lane == 0)
        warp_sum[warp] = ss;
    __syncthreads();

    if (warp == 0) {
        float t = lane < WARPS ? warp_sum[lane] : 0.0f;
        for (int off = 16; off > 0; off >>= 1)
            t += __shfl_down_sync(FULL_MASK, t, off);
        if (lane == 0)
            row_scale = g[row] / sqrtf(t);
    }
    __syncthreads();

    float scale = row_scale;
    for (int k = tid; k < K; k += THREADS)
        wr[k] = vr[k] * scale;
}
