// y[n][c] = (x[n][c] - mean_{n,g}) / sqrt(var_{n,g} + eps) * weight[c] + bias[c], the statistics over the C/G channels of group g = c / (C/G) and all their H*W positions (biased variance): nn.GroupNorm(num_groups=8, num_channels=64) on NCHW, as in KernelBench level 1's GroupNorm; one thread per (sample, group) walking its contiguous C/G*HW slab three times (mean, variance, write).
/* @optiml
   sizes:   N=16 C=64 G=8 HW=16384      # 128 x 128 maps: x 64 MiB in, y 64 MiB out; 128 threads of 131072 elements each
   check:   N=1 C=1 G=1 HW=3; N=2 C=6 G=3 HW=7; N=1 C=8 G=8 HW=50; N=3 C=4 G=2 HW=1; N=2 C=32 G=4 HW=100; N=5 C=12 G=6 HW=33
   x:       in  float[N*C*HW]
   weight:  in  float[C] uniform(0.5,1.5)
   bias:    in  float[C]
   y:       out float[N*C*HW]
   eps:     1e-5
   launch:  grid=cdiv(N*G,64) block=64
   flops:   8*N*C*HW
   tol:     1e-4
*/
__global__ void group_norm_naive(const float* x, const float* weight, const float* bias, float* y, float eps,
                                 int N, int C, int G, int HW)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;   // t = n * G + g
    if (t >= N * G)
        return;
    int n = t / G;
    int g = t % G;
    int cpg = C / G;
    long count = (long)cpg * HW;
    long base = ((long)n * C + (long)g * cpg) * HW;   // the group's channels are contiguous in NCHW

    float sum = 0.0f;
    for (long i = 0; i < count; ++i)
        sum += x[base + i];
    float mean = sum / count;

    float var = 0.0f;
    for (long i = 0; i < count; ++i) {
        float d = x[base + i] - mean;
        var += d * d;
    }
    var /= count;
    float inv_std = 1.0f / sqrtf(var + eps);

    for (int k = 0; k < cpg; ++k) {
        int c = g * cpg + k;
        float w = weight[c];
        float bb = bias[c];
        for (int p = 0; p < HW; ++p) {
            long i = base + (long)k * HW + p;
            y[i] = (x[i] - mean) * inv_std * w + bb;
        }
    }
}
