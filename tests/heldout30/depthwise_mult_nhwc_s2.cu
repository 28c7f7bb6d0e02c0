// y[n][oh][ow][co] = b[co] + sum_{kh, kw < 3} w[co][kh][kw] * x[n][2 oh - 1 + kh][2 ow - 1 + kw][co / MULT] (zero padding 1): a strided depthwise convolution with a channel multiplier of 2, `nn.Conv2d(32, 64, kernel_size=3, stride=2, padding=1, groups=32)` with bias (KernelBench level 1's depthwise 2-D convolution, here with more output than input channels) run channels-last on [32, 112, 112, 32] NHWC -> [32, 56, 56, 64] fp32, the weight in PyTorch's [Cout][1][3][3] layout; the multiplier a non-type template parameter with an explicit instantiation, an `int` grid-stride `while` loop capped at 2048 blocks of 256, the flat index decoded channel-first by % and /, the tap ranges clamped to the image with max / min instead of per-tap tests, #define KS, STRIDE and PAD.
#define KS 3
#define STRIDE 2
#define PAD 1

/* @optiml
   sizes:   N=32 H=112 W=112 C=32   # x 49 MiB in, y 24.5 MiB out, weight 2.3 KiB in; 0.12 GFLOP
   check:   N=1 H=1 W=1 C=1; N=2 H=5 W=7 C=3; N=1 H=8 W=3 C=65; N=3 H=2 W=2 C=2; N=1 H=33 W=17 C=1; N=1 H=4 W=130 C=5; N=1 H=181 W=181 C=32
   template: MULT=2
   x:       in  float[N*H*W*C]
   weight:  in  float[C*MULT*9]
   bias:    in  float[C*MULT]
   y:       out float[N*((H-1)//2+1)*((W-1)//2+1)*C*MULT]
   launch:  grid=min(cdiv(N*((H-1)//2+1)*((W-1)//2+1)*C*MULT,256),2048) block=256
   flops:   18*N*((H-1)//2+1)*((W-1)//2+1)*C*MULT
   tol:     1e-5
*/
template <int MULT>
__global__ void depthwise_mult_nhwc(const float* x, const float* weight, const float* bias, float* y,
                                    int N, int H, int W, int C)
{
    int Ho = (H + 2 * PAD - KS) / STRIDE + 1;
    int Wo = (W + 2 * PAD - KS) / STRIDE + 1;
    int Cout = C * MULT;
    int total = N * Ho * Wo * Cout;

    int i = blockIdx.x * blockDim.x + threadIdx.x;
    while (i < total) {
        int co = i % Cout;
        int ow = (i / Cout) % Wo;
        int oh = (i / (Cout * Wo)) % Ho;
        int n = i / (Cout * Wo * Ho);
        int ci = co / MULT;

        int h0 = oh * STRIDE - PAD;
        int w0 = ow * STRIDE - PAD;
        int kh_lo = max(0, -h0), kh_hi = min(KS, H - h0);
        int kw_lo = max(0, -w0), kw_hi = min(KS, W - w0);

        float acc = bias[co];
        for (int kh = kh_lo; kh < kh_hi; kh++)
            for (int kw = kw_lo; kw < kw_hi; kw++)
                acc += x[((n * H + h0 + kh) * W + w0 + kw) * C + ci] * weight[co * KS * KS + kh * KS + kw];
        y[i] = acc;

        i += blockDim.x * gridDim.x;
    }
}

template __global__ void depthwise_mult_nhwc<2>(const float*, const float*, const float*, float*, int, int, int, int);
