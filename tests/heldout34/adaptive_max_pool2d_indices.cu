// y[n][c][oh][ow] = max over h in [floor(oh H / OH), ceil((oh + 1) H / OH)), w in [floor(ow W / OW), ceil((ow + 1) W / OW)) of x[n][c][h][w], and idx[n][c][oh][ow] = h W + w of that max (the first in row-major order on ties): `F.adaptive_max_pool2d(x, (7, 7), return_indices=True)` (values and int64 indices together, as a pooling layer that feeds a `max_unpool2d` keeps them; its windows overlap where 7 does not divide the map) on [64, 512, 30, 30] NCHW fp32 -> [64, 512, 7, 7] twice; ported from ATen's CPU loop: one thread per output on a 1-D launch, early return, `__device__ inline` `start_index` / `end_index` helpers in integer arithmetic, a `__device__ inline int idx4(...)` helper for the output, a `bool first` flag seeding the running max and its index, hoisted window bounds and plane pointer, `const` locals, `static_cast`, indices written as `long long`.

__device__ inline int start_index(int a, int b, int c)
{
    return (a * c) / b;                 // floor(a * c / b)
}

__device__ inline int end_index(int a, int b, int c)
{
    return ((a + 1) * c + b - 1) / b;   // ceil((a + 1) * c / b)
}

__device__ inline int idx4(int n, int c, int h, int w, int C, int H, int W)
{
    return ((n * C + c) * H + h) * W + w;
}

/* @optiml
   sizes:   N=64 C=512 H=30 W=30 OH=7 OW=7   # x 112.5 MiB in, y 6.1 MiB out, idx 12.3 MiB out; 45 MFLOP
   check:   N=1 C=1 H=1 W=1 OH=1 OW=1; N=2 C=3 H=5 W=7 OH=3 OW=2; N=1 C=4 H=20 W=20 OH=7 OW=7; N=1 C=5 H=3 W=4 OH=7 OW=7; N=2 C=130 H=9 W=11 OH=1 OW=1; N=1 C=3 H=33 W=17 OH=5 OW=6
   x:       in  float[N*C*H*W]
   y:       out float[N*C*OH*OW]
   idx:     out long long[N*C*OH*OW]
   launch:  grid=cdiv(N*C*OH*OW,128) block=128
   flops:   N*C*(H+OH)*(W+OW)
   tol:     1e-6
*/
__global__ void adaptive_max_pool2d_indices(const float* x, float* y, long long* idx, int N, int C, int H, int W,
                                            int OH, int OW)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= N * C * OH * OW)
        return;
    const int ow = t % OW;
    const int oh = (t / OW) % OH;
    const int c = (t / (OW * OH)) % C;
    const int n = t / (OW * OH * C);

    const int h_begin = start_index(oh, OH, H);
    const int h_end = end_index(oh, OH, H);
    const int w_begin = start_index(ow, OW, W);
    const int w_end = end_index(ow, OW, W);
    const float* plane = x + static_cast<size_t>(n * C + c) * H * W;

    bool first = true;
    float best = 0.0f;
    int best_at = 0;
    for (int h = h_begin; h < h_end; ++h) {
        const float* row = plane + h * W;
        for (int w = w_begin; w < w_end; ++w) {
            const float v = row[w];
            if (first || v > best) {
                best = v;
                best_at = h * W + w;
                first = false;
            }
        }
    }
    const int o = idx4(n, c, oh, ow, C, OH, OW);
    y[o] = best;
    idx[o] = static_cast<long long>(best_at);
}
