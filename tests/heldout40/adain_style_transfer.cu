// out[n, c] = (content[n, c] - mean(content[n, c])) / std(content[n, c]) * std(style[n, c]) + mean(style[n, c]) with std = sqrt(unbiased var + 1e-5) over each H x W plane: adaptive instance normalisation (Huang & Belongie; pytorch-AdaIN's `adaptive_instance_normalization(content_feat, style_feat)` with `calc_mean_std`: `feat.view(N, C, -1).var(dim=2) + eps`, `.sqrt()`, `.mean(dim=2)`), VGG-19 relu4_1 features, 512 channels, content 64 x 64 (a 512 px image) and style 80 x 80 (a 640 px style image), batch 8, fp32; one block of 256 threads per (sample, channel), the content plane's sum and sum of squares and the style plane's sum and sum of squares kept in four registers and reduced together in one stacked `__shared__ float red[4][THREADS]` tree, the variances as (sum of squares - n mean^2) / (n - 1), then every thread writing its own elements of the output plane; `#define THREADS`, `size_t` plane offsets, `__restrict__`, eps an argument; content `uniform(0,2)`, style `uniform(0,4)` (non-negative ReLU features).

#define THREADS 256

/* @optiml
   sizes:   N=8 C=512 HWc=4096 HWs=6400   # content 64 MiB, style 100 MiB in, out 64 MiB out; 0.2 GFLOP
   check:   N=1 C=1 HWc=2 HWs=2; N=2 C=3 HWc=3 HWs=700; N=1 C=5 HWc=257 HWs=5; N=2 C=2 HWc=1000 HWs=1001; N=1 C=4 HWc=64 HWs=100; N=3 C=5 HWc=33 HWs=31; N=1 C=2 HWc=4099 HWs=2500
   content: in  float[N*C*HWc] uniform(0,2)
   style:   in  float[N*C*HWs] uniform(0,4)
   out:     out float[N*C*HWc]
   eps:     1e-5
   launch:  grid=N*C block=256
   flops:   6*N*C*HWc + 3*N*C*HWs
   tol:     1e-4
*/
__global__ void adain_kernel(const float* __restrict__ content, const float* __restrict__ style, float* __restrict__ out,
                             int N, int C, int HWc, int HWs, float eps)
{
    __shared__ float red[4][THREADS];    // content sum, content sum of squares, style sum, style sum of squares

    const size_t plane = blockIdx.x;     // n * C + c
    const float* xc = content + plane * HWc;
    const float* xs = style + plane * HWs;
    const int tid = threadIdx.x;

    float cs = 0.0f, css = 0.0f, ss = 0.0f, sss = 0.0f;
    for (int i = tid; i < HWc; i += THREADS) {
        float v = xc[i];
        cs += v;
        css += v * v;
    }
    for (int i = tid; i < HWs; i += THREADS) {
        float v = xs[i];
        ss += v;
        sss += v * v;
    }
    red[0][tid] = cs;
    red[1][tid] = css;
    red[2][tid] = ss;
    red[3][tid] = sss;
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride >>= 1) {
        if (tid < stride) {
            for (int k = 0; k < 4; ++k)
                red[k][tid] += red[k][tid + stride];
        }
        __syncthreads();
    }

    const float c_mean = red[0][0] / HWc;
    const float c_std = sqrtf((red[1][0] - HWc * c_mean * c_mean) / (HWc - 1) + eps);
    const float s_mean = red[2][0] / HWs;
    const float s_std = sqrtf((red[3][0] - HWs * s_mean * s_mean) / (HWs - 1) + eps);

    float* o = out + plane * HWc;
    for (int i = tid; i < HWc; i += THREADS)
        o[i] = (xc[i] - c_mean) / c_std * s_std + s_mean;
}
