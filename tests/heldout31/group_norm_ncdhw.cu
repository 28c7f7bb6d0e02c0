// y[n][c][d][h][w] = (x - mean_g) / sqrt(var_g + eps) * weight[c] + bias[c], mean_g and the biased var_g over the C/G channels of c's group and all D x H x W positions: `nn.GroupNorm(8, 64, eps=1e-5)` with its affine (KernelBench level 1's GroupNorm, here on a 3-D U-Net's volumes as MONAI's blocks use it) on [4, 64, 16, 64, 64] NCDHW fp32; one block of 256 threads per (n, g) group slab (contiguous, C/G * D*H*W floats), a strided loop per thread, a `__shared__` tree reduction for the sum and again for the sum of squared deviations (two passes), a third pass writing the normalized, scaled and shifted values, #define THREADS, eps a float argument, `size_t` offsets.

#define THREADS 256

/* @optiml
   sizes:   N=4 C=64 G=8 D=16 H=64 W=64   # x 64 MiB in, y 64 MiB out; 0.13 GFLOP
   check:   N=1 C=1 G=1 D=1 H=1 W=2; N=2 C=4 G=2 D=3 H=5 W=7; N=1 C=6 G=3 D=2 H=9 W=17; N=1 C=8 G=8 D=1 H=1 W=3; N=3 C=2 G=1 D=4 H=3 W=2; N=1 C=5 G=5 D=7 H=11 W=13
   x:       in  float[N*C*D*H*W]
   weight:  in  float[C]
   bias:    in  float[C]
   y:       out float[N*C*D*H*W]
   eps:     1e-5
   launch:  grid=N*G block=256
   flops:   8*N*C*D*H*W
   tol:     1e-4
*/
__global__ void group_norm_ncdhw(const float* x, const float* weight, const float* bias, float* y, float eps,
                                 int N, int C, int G, int D, int H, int W)
{
    __shared__ float red[THREADS];

    const int ng = blockIdx.x;                 // n * G + g
    const int g = ng % G;
    const int cpg = C / G;
    const size_t spatial = (size_t)D * H * W;
    const size_t count = (size_t)cpg * spatial;
    const float* xs = x + (size_t)ng * count;  // the group's channels are contiguous
    float* ys = y + (size_t)ng * count;
    const int tid = threadIdx.x;

    float s = 0.0f;
    for (size_t i = tid; i < count; i += THREADS)
        s += xs[i];
    red[tid] = s;
    __syncthreads();
    for (int half = THREADS / 2; half > 0; half /= 2) {
        if (tid < half)
            red[tid] += red[tid + half];
        __syncthreads();
    }
    const float mean = red[0] / (float)count;
    __syncthreads();

    float q = 0.0f;
    for (size_t i = tid; i < count; i += THREADS) {
        float d = xs[i] - mean;
        q += d * d;
    }
    red[tid] = q;
    __syncthreads();
    for (int half = THREADS / 2; half > 0; half /= 2) {
        if (tid < half)
            red[tid] += red[tid + half];
        __syncthreads();
    }
    const float rstd = rsqrtf(red[0] / (float)count + eps);

    for (size_t i = tid; i < count; i += THREADS) {
        int c = g * cpg + (int)(i / spatial);
        ys[i] = (xs[i] - mean) * rstd * weight[c] + bias[c];
    }
}
