// y[n][c][od][oh][ow] = (1/27) * sum of x over the 3 x 3 x 3 window starting at (2 od - 1, 2 oh - 1, 2 ow - 1), taps in the padding counted as 0: `nn.AvgPool3d(kernel_size=3, stride=2, padding=1)` (count_include_pad=True, floor mode; KernelBench level 1's 3-D average pooling) on [4, 28, 64, 64, 64] fp32; one thread per output, the flat index decoded by / and % into five coordinates, #define KS 3, STRIDE 2 and PAD 1, the divisor always the whole window.
#define KS 3
#define STRIDE 2
#define PAD 1

/* @optiml
   sizes:   N=4 C=28 D=64 H=64 W=64     # x 112 MiB in, y 14 MiB out
   check:   N=1 C=1 D=1 H=1 W=1; N=2 C=3 D=5 H=6 W=7; N=1 C=2 D=2 H=9 W=4; N=1 C=1 D=17 H=3 W=33; N=3 C=5 D=4 H=4 W=4; N=1 C=4 D=3 H=1 W=10
   x:       in  float[N*C*D*H*W]
   y:       out float[N*C*cdiv(D,2)*cdiv(H,2)*cdiv(W,2)]
   launch:  grid=cdiv(N*C*cdiv(D,2)*cdiv(H,2)*cdiv(W,2),256) block=256
   flops:   28*N*C*cdiv(D,2)*cdiv(H,2)*cdiv(W,2)
   tol:     1e-5
*/
__global__ void avg_pool3d_k3s2p1(const float* x, float* y, int N, int C, int D, int H, int W)
{
    int Do = (D + 2 * PAD - KS) / STRIDE + 1;
    int Ho = (H + 2 * PAD - KS) / STRIDE + 1;
    int Wo = (W + 2 * PAD - KS) / STRIDE + 1;

    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= N * C * Do * Ho * Wo)
        return;

    int ow = idx % Wo;
    int oh = (idx / Wo) % Ho;
    int od = (idx / (Wo * Ho)) % Do;
    int nc = idx / (Wo * Ho * Do);

    const float* src = x + (size_t)nc * D * H * W;
    float sum = 0.0f;
    for (int kd = 0; kd < KS; kd++) {
        int id = od * STRIDE - PAD + kd;
        for (int kh = 0; kh < KS; kh++) {
            int ih = oh * STRIDE - PAD + kh;
            for (int kw = 0; kw < KS; kw++) {
                int iw = ow * STRIDE - PAD + kw;
                if (id >= 0 && id < D && ih >= 0 && ih < H && iw >= 0 && iw < W)
                    sum += src[(id * H + ih) * W + iw];
            }
        }
    }
    y[idx] = sum / (KS * KS * KS);
}
