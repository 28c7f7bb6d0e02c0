// y[n][co][h][w] = sum_{ci in co's group} sum_{kh,kw} x[n][ci][h + kh - 1][w + kw - 1] * wt[co][ci - g * cpg][kh][kw], zero padding, cpg = C / groups: nn.Conv2d(128, 128, 3, padding=1, groups=32, bias=False) (the grouped 3 x 3 convolution of a ResNeXt-50 32x4d bottleneck, 4 channels per group) on [40, 128, 56, 56]; a 2-D grid with blockIdx.y = n * C + co and the output pixels of that plane along x, one thread per output element looping over its group's input channels and the 3 x 3 window.
#define KS 3
#define PAD 1

/* @optiml
   sizes:   N=40 C=128 H=56 W=56 groups=32   # x 61 MiB in, y 61 MiB out, wt 18 KiB
   check:   N=1 C=1 H=1 W=1 groups=1; N=2 C=4 H=5 W=7 groups=2; N=1 C=6 H=9 W=11 groups=3; N=3 C=8 H=13 W=1 groups=4; N=2 C=5 H=6 W=6 groups=5; N=1 C=12 H=17 W=23 groups=3
   x:       in  float[N*C*H*W]
   wt:      in  float[C*(C/groups)*9]
   y:       out float[N*C*H*W]
   launch:  grid=(cdiv(H*W,128),N*C) block=128
   flops:   2*N*C*H*W*(C/groups)*9
   tol:     1e-4
*/
__global__ void grouped_conv2d_3x3(const float* x, const float* wt, float* y, int N, int C, int H, int W, int groups)
{
    int pix = blockIdx.x * blockDim.x + threadIdx.x;
    int n = blockIdx.y / C;
    int co = blockIdx.y % C;
    if (pix >= H * W)
        return;

    int h = pix / W;
    int w = pix % W;
    int cpg = C / groups;
    int g = co / cpg;

    float sum = 0.0f;
    for (int i = 0; i < cpg; i++) {
        int ci = g * cpg + i;
        const float* xp = x + ((long)n * C + ci) * H * W;
        const float* wp = wt + ((long)co * cpg + i) * KS * KS;
        for (int kh = 0; kh < KS; kh++) {
            int ih = h + kh - PAD;
            if (ih < 0 || ih >= H)
                continue;
            for (int kw = 0; kw < KS; kw++) {
                int iw = w + kw - PAD;
                if (iw < 0 || iw >= W)
                    continue;
                sum += xp[ih * W + iw] * wp[kh * KS + kw];
            }
        }
    }
    y[((long)n * C + co) * H * W + pix] = sum;
}
