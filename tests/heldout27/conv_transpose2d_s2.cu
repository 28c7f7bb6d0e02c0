// y[n][co][oh][ow] = b[co] + sum over ci, kh, kw and (ih, iw) with oh = 2 ih - 1 + kh, ow = 2 iw - 1 + kw of x[n][ci][ih][iw] * w[ci][co][kh][kw]: `nn.ConvTranspose2d(64, 32, 3, stride=2, padding=1, output_padding=1)` with bias (KernelBench level 1's strided transposed 2-D convolution, a decoder's 2x up-sampling layer) from [8, 64, 64, 64] to [8, 32, 128, 128] fp32; gather form, one thread per output on a 3-D grid of 16 x 16 blocks (blockIdx.z = n * Cout + co), a tap kept when oh + PAD - kh is a non-negative multiple of STRIDE inside the input, the weight in PyTorch's [Cin][Cout][3][3] layout.
#define KS 3
#define STRIDE 2
#define PAD 1
#define OUT_PAD 1

/* @optiml
   sizes:   N=8 Cin=64 Cout=32 H=64 W=64  # x 8 MiB in, y 16 MiB out, weight 72 KiB in; 1.2 GFLOP
   check:   N=1 Cin=1 Cout=1 H=1 W=1; N=2 Cin=3 Cout=5 H=4 W=7; N=1 Cin=2 Cout=3 H=9 W=1; N=1 Cin=5 Cout=2 H=13 W=10; N=3 Cin=4 Cout=1 H=3 W=3; N=1 Cin=1 Cout=4 H=17 W=9
   x:       in  float[N*Cin*H*W]
   weight:  in  float[Cin*Cout*9]
   bias:    in  float[Cout]
   y:       out float[N*Cout*(2*H)*(2*W)]
   launch:  grid=(cdiv(2*W,16),cdiv(2*H,16),N*Cout) block=(16,16)
   flops:   18*N*Cout*Cin*H*W
   tol:     1e-4
*/
__global__ void conv_transpose2d_s2(const float* x, const float* weight, const float* bias, float* y,
                                    int N, int Cin, int Cout, int H, int W)
{
    int Hout = (H - 1) * STRIDE - 2 * PAD + KS + OUT_PAD;
    int Wout = (W - 1) * STRIDE - 2 * PAD + KS + OUT_PAD;

    int ow = blockIdx.x * blockDim.x + threadIdx.x;
    int oh = blockIdx.y * blockDim.y + threadIdx.y;
    int nc = blockIdx.z;
    int n = nc / Cout;
    int co = nc % Cout;
    if (oh >= Hout || ow >= Wout)
        return;

    float acc = bias[co];
    for (int ci = 0; ci < Cin; ci++) {
        const float* xp = x + ((size_t)n * Cin + ci) * H * W;
        const float* wp = weight + ((size_t)ci * Cout + co) * KS * KS;
        for (int kh = 0; kh < KS; kh++) {
            int th = oh + PAD - kh;
            if (th < 0 || th % STRIDE != 0)
                continue;
            int ih = th / STRIDE;
            if (ih >= H)
                continue;
            for (int kw = 0; kw < KS; kw++) {
                int tw = ow + PAD - kw;
                if (tw < 0 || tw % STRIDE != 0)
                    continue;
                int iw = tw / STRIDE;
                if (iw >= W)
                    continue;
                acc += xp[ih * W + iw] * wp[kh * KS + kw];
            }
        }
    }
    y[((size_t)nc * Hout + oh) * Wout + ow] = acc;
}
