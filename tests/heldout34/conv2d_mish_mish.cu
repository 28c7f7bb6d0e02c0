// y[n][co][oh][ow] = mish(mish(bias[co] + sum_ci sum_{kh, kw < 3} weight[co][ci][kh][kw] * x[n][ci][oh + kh][ow + kw])), mish(v) = v tanh(log(1 + exp(v))): KernelBench level 2's Conv2d_Mish_Mish (`x = self.conv(x); x = torch.nn.functional.mish(x); x = torch.nn.functional.mish(x)`) with nn.Conv2d(16, 64, 3) (no padding, bias) on [32, 16, 128, 128] NCHW -> [32, 64, 126, 126] fp32; ported from a CPU loop nest: one thread per output pixel of a plane on a 2-D launch (the pixel on x, blockIdx.y = n * Cout + co), early return, the output extents `const int`s computed in the kernel, each input channel's 3 x 3 filter copied into a local `float k[9]` by a constant loop and applied to three hoisted row pointers in one written-out expression, a plain `__device__` Mish helper spelled with the double functions' names (`tanh`, `log1p`, `exp`) on floats, `size_t` offsets with `static_cast`.

__device__ float mish(float v)
{
    return v * tanh(log1p(exp(v)));
}

/* @optiml
   sizes:   N=32 Cin=16 Cout=64 H=128 W=128   # x 32 MiB in, weight 36 KiB in, y 124 MiB out; 9.8 GFLOP
   check:   N=1 Cin=1 Cout=1 H=3 W=3; N=2 Cin=3 Cout=5 H=7 W=5; N=1 Cin=2 Cout=4 H=19 W=40; N=3 Cin=4 Cout=2 H=20 W=17; N=1 Cin=16 Cout=7 H=34 W=18; N=2 Cin=1 Cout=3 H=131 W=4
   x:       in  float[N*Cin*H*W]
   weight:  in  float[Cout*Cin*9] uniform(-0.1,0.1)
   bias:    in  float[Cout] uniform(-0.1,0.1)
   y:       out float[N*Cout*(H-2)*(W-2)]
   launch:  grid=(cdiv((H-2)*(W-2),256),N*Cout) block=256
   flops:   2*N*Cout*(H-2)*(W-2)*Cin*9 + 12*N*Cout*(H-2)*(W-2)
   tol:     1e-5
*/
__global__ void conv2d_mish_mish(const float* x, const float* weight, const float* bias, float* y, int N, int Cin,
                                 int Cout, int H, int W)
{
    const int Ho = H - 2;
    const int Wo = W - 2;
    const int p = blockIdx.x * blockDim.x + threadIdx.x;
    const int nc = blockIdx.y;
    if (p >= Ho * Wo)
        return;
    const int oh = p / Wo;
    const int ow = p % Wo;
    const int n = nc / Cout;
    const int co = nc % Cout;

    const size_t plane = static_cast<size_t>(H) * W;
    const float* xn = x + static_cast<size_t>(n) * Cin * plane;
    const float* wc = weight + static_cast<size_t>(co) * Cin * 9;

    float acc = bias[co];
    float k[9];
    for (int ci = 0; ci < Cin; ++ci) {
        for (int t = 0; t < 9; ++t)
            k[t] = wc[ci * 9 + t];
        const float* r0 = xn + static_cast<size_t>(ci) * plane + static_cast<size_t>(oh) * W + ow;
        const float* r1 = r0 + W;
        const float* r2 = r1 + W;
        acc += k[0] * r0[0] + k[1] * r0[1] + k[2] * r0[2]
             + k[3] * r1[0] + k[4] * r1[1] + k[5] * r1[2]
             + k[6] * r2[0] + k[7] * r2[1] + k[8] * r2[2];
    }
    y[static_cast<size_t>(nc) * Ho * Wo + p] = mish(mish(acc));
}
