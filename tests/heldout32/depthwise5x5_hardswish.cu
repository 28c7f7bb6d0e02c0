// y[n][c][h][w] = hardswish(bias[c] + sum_{kh, kw < 5} weight[c][kh][kw] * x[n][c][h - 2 + kh][w - 2 + kw]) (zero padding 2), hardswish(v) = v * min(max(v + 3, 0), 6) / 6: `F.hardswish(F.conv2d(x, weight, bias, padding=2, groups=C))`, the depthwise 5 x 5 convolution (batch norm folded into its bias) and Hardswish of a MobileNetV3-Large bottleneck (KernelBench level 2's depthwise Conv + HardSwish family), on its 672-channel 14 x 14 expansion at batch 128, NCHW fp32, weight in PyTorch's [C][1][5][5] layout; a `long long` grid-stride `for` capped at 1024 blocks of 256, the flat index decoded by % and / into (w, h, c, n), `continue` over taps outside the image, #define KS and PAD, __restrict__ on every pointer.

#define KS 5
#define PAD 2

/* @optiml
   sizes:   N=128 C=672 H=14 W=14   # x 64.3 MiB in, y 64.3 MiB out, weight 66 KiB in; 0.91 GFLOP
   check:   N=1 C=1 H=1 W=1; N=2 C=3 H=5 W=7; N=1 C=4 H=2 W=3; N=3 C=2 H=14 W=14; N=1 C=5 H=17 W=33; N=2 C=1 H=6 W=130; N=1 C=3 H=300 W=300
   x:       in  float[N*C*H*W]
   weight:  in  float[C*25]
   bias:    in  float[C]
   y:       out float[N*C*H*W]
   launch:  grid=min(cdiv(N*C*H*W,256),1024) block=256
   flops:   54*N*C*H*W
   tol:     1e-5
*/
__global__ void depthwise5x5_hardswish(const float* __restrict__ x, const float* __restrict__ weight,
                                       const float* __restrict__ bias, float* __restrict__ y, int N, int C, int H, int W)
{
    const long long total = (long long)N * C * H * W;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < total;
         i += (long long)blockDim.x * gridDim.x) {
        int w = (int)(i % W);
        int h = (int)((i / W) % H);
        int c = (int)((i / ((long long)W * H)) % C);
        long long nc = i / ((long long)W * H);           // n * C + c

        const float* plane = x + nc * H * W;
        const float* filt = weight + c * KS * KS;
        float acc = bias[c];
        for (int kh = 0; kh < KS; ++kh) {
            int ih = h - PAD + kh;
            if (ih < 0 || ih >= H)
                continue;
            for (int kw = 0; kw < KS; ++kw) {
                int iw = w - PAD + kw;
                if (iw < 0 || iw >= W)
                    continue;
                acc += plane[(long long)ih * W + iw] * filt[kh * KS + kw];
            }
        }
        y[i] = acc * fminf(fmaxf(acc + 3.0f, 0.0f), 6.0f) / 6.0f;
    }
}
