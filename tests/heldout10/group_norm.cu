// y = (x - mean_g) / sqrt(var_g + eps) * gamma[c] + beta[c], mean and biased variance over each (n, group) of C/G channels x HW positions; x is N x C x HW.
/* @optiml
   sizes:  N=64 C=128 G=32 HW=4096      # 2^25 floats: 128 MiB in, 128 MiB out
   check:  N=1 C=1 G=1 HW=1; N=2 C=6 G=3 HW=5; N=3 C=8 G=2 HW=33; N=1 C=4 G=4 HW=100
   x:      in  float[N*C*HW]
   gamma:  in  float[C]
   beta:   in  float[C]
   y:      out float[N*C*HW]
   eps:    1e-5
   launch: grid=cdiv(N*G,64) block=64
   flops:  8*N*C*HW
   tol:    1e-4
*/
__global__ void group_norm_fwd(const float* x, const float* gamma, const float* beta, float* y,
                               int N, int C, int G, int HW, float eps)
{
    int ng = blockIdx.x * blockDim.x + threadIdx.x;
    if (ng >= N * G) return;
    int g = ng % G;
    int cpg = C / G;
    int group_size = cpg * HW;
    // the channels of one group are contiguous: the group is one slab of cpg * HW floats
    const float* xs = x + (size_t)ng * group_size;
    float* ys = y + (size_t)ng * group_size;

    float mean = 0.0f;
    for (int i = 0; i < group_size; i++) mean += xs[i];
    mean /= group_size;
    float var = 0.0f;
    for (int i = 0; i < group_size; i++) {
        float d = xs[i] - mean;
        var += d * d;
    }
    var /= group_size;
    float inv_std = rsqrtf(var + eps);

    for (int i = 0; i < group_size; i++) {
        int c = g * cpg + i / HW;
        ys[i] = (xs[i] - mean) * inv_std * gamma[c] + beta[c];
    }
}
