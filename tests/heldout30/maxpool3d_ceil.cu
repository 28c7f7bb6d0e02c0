// y[p][od][oh][ow] = max of x[p][d][h][w] over d in [2 od, min(2 od + 3, D)), and likewise for h and w: `nn.MaxPool3d(kernel_size=3, stride=2, ceil_mode=True)` (KernelBench level 1's 3-D max pooling, here in ceil mode, so the last window of an even extent hangs over the end and is cut short) on C3D / I3D-style video features [8, 64, 16, 56, 56] NCDHW (P = N * C = 512 volumes) -> [8, 64, 8, 28, 28] fp32; one thread per output on a 1-D launch, a `long long` flat index decoded by % and / into (ow, oh, od, p), early return, #define K and S, the window ends clamped with min() (no padding, so no max() at the start), `fmaxf` over the window, a volume pointer, `__restrict__` on both pointers.
#define K 3
#define S 2

/* @optiml
   sizes:   P=512 D=16 H=56 W=56   # x 98 MiB in, y 12.3 MiB out; 87 MFLOP (compares)
   check:   P=1 D=2 H=2 W=2; P=2 D=3 H=5 W=7; P=1 D=4 H=6 W=65; P=3 D=7 H=2 W=9; P=1 D=2 H=33 W=4; P=5 D=5 H=3 W=3; P=4 D=6 H=8 W=10
   x:       in  float[P*D*H*W]
   y:       out float[P*(D//2)*(H//2)*(W//2)]
   launch:  grid=cdiv(P*(D//2)*(H//2)*(W//2),256) block=256
   flops:   27*P*(D//2)*(H//2)*(W//2)
   tol:     1e-6
*/
__global__ void maxpool3d_ceil(const float* __restrict__ x, float* __restrict__ y, int P, int D, int H, int W)
{
    // ceil((n - K) / S) + 1, less one where the last window would start past the end (never, without padding)
    const int Do = (D - K + S - 1) / S + 1;
    const int Ho = (H - K + S - 1) / S + 1;
    const int Wo = (W - K + S - 1) / S + 1;

    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= (long long)P * Do * Ho * Wo) return;
    int ow = idx % Wo;
    int oh = (idx / Wo) % Ho;
    int od = (idx / Wo / Ho) % Do;
    long long p = idx / Wo / Ho / Do;

    int d0 = od * S, d1 = min(d0 + K, D);
    int h0 = oh * S, h1 = min(h0 + K, H);
    int w0 = ow * S, w1 = min(w0 + K, W);

    const float* vol = x + p * D * H * W;
    float best = vol[((long long)d0 * H + h0) * W + w0];
    for (int d = d0; d < d1; d++)
        for (int h = h0; h < h1; h++)
            for (int w = w0; w < w1; w++)
                best = fmaxf(best, vol[((long long)d * H + h) * W + w]);
    y[idx] = best;
}
