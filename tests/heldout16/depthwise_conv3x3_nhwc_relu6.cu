// out[n][h][w][c] = min(max(bias[c] + sum over ky, kx of wt[ky][kx][c] * x[n][h+ky-1][w+kx-1][c], 0), 6) (zero padding): a MobileNet depthwise 3x3 convolution, stride 1, "same" padding, channels-last (NHWC) with the filter in HWC layout, + bias + ReLU6; one thread per output element, a grid-stride loop.
#include <cstdint>

/* @optiml
   sizes:  N=8 H=128 W=128 C=128        # 2^24 floats: 64 MiB in, 64 MiB out, 4.5 KiB of weights
   check:  N=1 H=1 W=1 C=1; N=2 H=3 W=5 C=7; N=1 H=17 W=9 C=64; N=3 H=2 W=1 C=130; N=1 H=30 W=31 C=3
   x:      in  float[N*H*W*C] uniform(-2,2)   # wider than the default so that both ReLU6 clamps are hit
   wt:     in  float[3*3*C]
   bias:   in  float[C]
   out:    out float[N*H*W*C]
   launch: grid=min(cdiv(N*H*W*C,256),8192) block=256
   flops:  20*N*H*W*C
*/
__global__ void depthwise_conv3x3_nhwc_relu6(const float* x, const float* wt, const float* bias, float* out,
                                             int N, int H, int W, int C)
{
    const int64_t total = (int64_t)N * H * W * C;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total;
         i += (int64_t)gridDim.x * blockDim.x) {
        int c = (int)(i % C);
        int64_t t = i / C;
        int w = (int)(t % W);
        t /= W;
        int h = (int)(t % H);
        int64_t n = t / H;

        float acc = bias[c];
        for (int ky = 0; ky < 3; ++ky) {
            int ih = h + ky - 1;
            if (ih < 0 || ih >= H) continue;
            for (int kx = 0; kx < 3; ++kx) {
                int iw = w + kx - 1;
                if (iw < 0 || iw >= W) continue;
                acc += wt[(ky * 3 + kx) * C + c] * x[((n * H + ih) * W + iw) * C + c];
            }
        }
        out[i] = fminf(fmaxf(acc, 0.0f), 6.0f);
    }
}
