// y[n][oh][ow][co] = sum_kh,kw,ci w[co][kh][kw][ci] * x[n][2oh+kh-3][2ow+kw-3][ci] (zero outside the image): the ResNet stem `nn.Conv2d(3, 64, kernel_size=7, stride=2, padding=3, bias=False)` run channels-last (`memory_format=torch.channels_last`: activations NHWC, the weight in its OHWI storage order) on a batch of 32 224 x 224 images, fp32; one thread per output on a 1-D launch, an int64_t flat index decoded channel first (co, ow, oh, n), kernel size, stride and padding passed as runtime int arguments, one combined bounds test per tap and a contiguous run of Cin channels per tap.
#include <cstdint>

/* @optiml
   sizes:   N=32 H=224 W=224 Cin=3 Cout=64   # x 18.4 MiB in, y 98 MiB out, weight 36.8 KiB in; 7.6 GFLOP
   check:   N=1 H=1 W=1 Cin=1 Cout=1; N=2 H=5 W=6 Cin=3 Cout=4; N=1 H=9 W=1 Cin=2 Cout=3; N=1 H=14 W=13 Cin=3 Cout=7; N=3 H=2 W=3 Cin=1 Cout=2; N=1 H=8 W=17 Cin=4 Cout=33
   x:       in  float[N*H*W*Cin]
   weight:  in  float[Cout*49*Cin]
   y:       out float[N*((H-1)//2+1)*((W-1)//2+1)*Cout]
   ksize:   7
   stride:  2
   pad:     3
   launch:  grid=cdiv(N*((H-1)//2+1)*((W-1)//2+1)*Cout,256) block=256
   flops:   98*N*((H-1)//2+1)*((W-1)//2+1)*Cout*Cin
   tol:     1e-4
*/
__global__ void conv2d_stem_nhwc(const float* x, const float* weight, float* y,
                                 int N, int H, int W, int Cin, int Cout, int ksize, int stride, int pad)
{
    int Ho = (H + 2 * pad - ksize) / stride + 1;
    int Wo = (W + 2 * pad - ksize) / stride + 1;
    int64_t total = (int64_t)N * Ho * Wo * Cout;
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= total) return;

    int co = (int)(i % Cout);
    int64_t pix = i / Cout;
    int ow = (int)(pix % Wo);
    int oh = (int)((pix / Wo) % Ho);
    int n = (int)(pix / ((int64_t)Wo * Ho));

    float acc = 0.f;
    for (int kh = 0; kh < ksize; ++kh) {
        for (int kw = 0; kw < ksize; ++kw) {
            int ih = oh * stride - pad + kh;
            int iw = ow * stride - pad + kw;
            if (ih >= 0 && ih < H && iw >= 0 && iw < W) {
                const float* xp = x + (((int64_t)n * H + ih) * W + iw) * Cin;
                const float* wp = weight + (((int64_t)co * ksize + kh) * ksize + kw) * Cin;
                for (int ci = 0; ci < Cin; ++ci)
                    acc += xp[ci] * wp[ci];
            }
        }
    }
    y[i] = acc;
}
