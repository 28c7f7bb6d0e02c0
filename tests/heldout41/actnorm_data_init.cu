// loc[c] = -mean_{n,h,w} x[n, c, h, w], scale[c] = 1 / (std_{n,h,w} x[:, c] + 1e-6) (unbiased std): the data-dependent initialisation of Glow's ActNorm (rosinality's glow-pytorch `ActNorm.initialize`: `flatten = input.permute(1, 0, 2, 3).contiguous().view(C, -1); mean = flatten.mean(1); std = flatten.std(1); loc = -mean; scale = 1 / (std + 1e-6)`), on the first flow level of a 256 x 256 Glow (12 channels after the squeeze) for a batch of 256, [256, 12, 128, 128] -> [12] and [12], fp32; one block of 256 threads a channel, a per-thread loop over the pixels nested inside a loop over the batch, fp64 running (sum, sum of squares) per thread, the pairs merged by a `__shared__` tree over one dynamic `extern __shared__ double` buffer split in two (`smem=16*256`), thread 0 taking the one-pass unbiased variance and writing both outputs; `blockDim.x` in the loops, `unsigned int` tree stride, `size_t` plane offsets; x `normal(0.3,1.5)`.

/* @optiml
   sizes:  N=256 C=12 HW=16384   # x 192 MiB in, loc and scale 48 B each out; 0.15 GFLOP
   check:  N=2 C=3 HW=1; N=1 C=1 HW=2; N=3 C=4 HW=5; N=2 C=12 HW=255; N=4 C=2 HW=257; N=1 C=5 HW=1024; N=3 C=2 HW=4099; N=2 C=12 HW=16384
   input:  in  float[N*C*HW] normal(0.3,1.5)
   loc:    out float[C]
   scale:  out float[C]
   launch: grid=C block=256 smem=16*256
   flops:  3*N*C*HW
   tol:    1e-5
*/
__global__ void actnorm_init(const float* __restrict__ input, float* __restrict__ loc, float* __restrict__ scale,
                             int N, int C, int HW)
{
    extern __shared__ double red[];   // [blockDim.x] sums, then [blockDim.x] sums of squares
    double* r_sum = red;
    double* r_sq = red + blockDim.x;

    const int c = blockIdx.x;
    const int tid = threadIdx.x;

    double sum = 0.0, sq = 0.0;
    for (int n = 0; n < N; ++n) {
        const float* plane = input + ((size_t)n * C + c) * HW;
        for (int i = tid; i < HW; i += blockDim.x) {
            const double v = plane[i];
            sum += v;
            sq += v * v;
        }
    }
    r_sum[tid] = sum;
    r_sq[tid] = sq;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            r_sum[tid] += r_sum[tid + s];
            r_sq[tid] += r_sq[tid + s];
        }
        __syncthreads();
    }

    if (tid == 0) {
        const double count = (double)N * HW;
        const double mean = r_sum[0] / count;
        const double var = (r_sq[0] - count * mean * mean) / (count - 1.0);   // unbiased, as torch.std
        loc[c] = (float)(-mean);
        scale[c] = (float)(1.0 / (sqrt(var) + 1e-6));
    }
}
