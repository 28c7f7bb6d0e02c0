// y[n][co] = (1 / (H W)) sum_{oh < H, ow < W} gelu(bias[co] + sum_ci sum_{kh, kw < 3} weight[co][ci][kh][kw] * x[n][ci][oh - 1 + kh][ow - 1 + kw]) (zero padding 1), gelu(v) = v / 2 * (1 + erf(v / sqrt(2))): `F.adaptive_avg_pool2d(F.gelu(self.conv(x)), 1).squeeze(-1).squeeze(-1)` (KernelBench level 2's Conv2d_GELU_GlobalAvgPool, here with padding 1 so the map keeps its size, as a classifier head's last convolution before the pooled logits) with nn.Conv2d(64, 128, 3, padding=1) on [64, 64, 32, 32] NCHW -> [64, 128] fp32; one thread per (n, co) on a 1-D launch with the index spelled `threadIdx.x + blockIdx.x * blockDim.x`, early return, `do { } while` loops over the output rows and columns, each tap range clipped to the image with the integer `max` / `min` builtins, `const int` extents computed in the kernel, the GELU in double with literals written without `f`, a `double` accumulator for the pooled sum, `long` offsets.

/* @optiml
   sizes:   N=64 Cin=64 Cout=128 H=32 W=32   # x 16 MiB in, weight 288 KiB in, y 32 KiB out; 9.8 GFLOP
   check:   N=1 Cin=1 Cout=1 H=1 W=1; N=2 Cin=3 Cout=5 H=7 W=5; N=1 Cin=4 Cout=129 H=3 W=2; N=3 Cin=2 Cout=7 H=17 W=20; N=1 Cin=16 Cout=3 H=9 W=33; N=5 Cin=1 Cout=40 H=2 W=1
   x:       in  float[N*Cin*H*W]
   weight:  in  float[Cout*Cin*9] uniform(-0.1,0.1)
   bias:    in  float[Cout] uniform(-0.1,0.1)
   y:       out float[N*Cout]
   launch:  grid=cdiv(N*Cout,128) block=128
   flops:   2*N*Cout*H*W*Cin*9 + 12*N*Cout*H*W
   tol:     1e-4
*/
__global__ void conv2d_gelu_global_avgpool(const float* x, const float* weight, const float* bias, float* y,
                                           int N, int Cin, int Cout, int H, int W)
{
    int t = threadIdx.x + blockIdx.x * blockDim.x;
    if (t >= N * Cout)
        return;
    const int n = t / Cout;
    const int co = t % Cout;
    const int HW = H * W;
    const float* xn = x + (long)n * Cin * HW;
    const float* wc = weight + (long)co * Cin * 9;

    double pooled = 0.0;
    int oh = 0;
    do {
        const int h0 = max(oh - 1, 0);
        const int h1 = min(oh + 2, H);
        int ow = 0;
        do {
            const int w0 = max(ow - 1, 0);
            const int w1 = min(ow + 2, W);
            float acc = bias[co];
            for (int ci = 0; ci < Cin; ci++) {
                const float* plane = xn + (long)ci * HW;
                const float* filt = wc + ci * 9;
                for (int ih = h0; ih < h1; ih++)
                    for (int iw = w0; iw < w1; iw++)
                        acc += plane[(long)ih * W + iw] * filt[(ih - oh + 1) * 3 + (iw - ow + 1)];
            }
            double v = acc;
            pooled += 0.5 * v * (1.0 + erf(v * 0.7071067811865476));
            ow++;
        } while (ow < W);
        oh++;
    } while (oh < H);
    y[t] = (float)(pooled / HW);
}
