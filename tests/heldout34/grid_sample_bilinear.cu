// y[n][c][oh][ow] = sum over the four corners (yk, xk) of the source point that lie inside the image of wk x[n][c][yk][xk], the source point ix = ((grid[n][oh][ow][0] + 1) W - 1) / 2, iy = ((grid[n][oh][ow][1] + 1) H - 1) / 2, the corners its floor and the next row / column, wk the bilinear weights, corners outside the image read as 0: `F.grid_sample(x, grid, mode="bilinear", padding_mode="zeros", align_corners=False)` (a spatial transformer network's sampler, as its `F.affine_grid` then `F.grid_sample` warp a feature map) on x [32, 128, 64, 64] NCHW fp32 and grid [32, 64, 64, 2] `uniform(-1.1,1.1)` (a few points fall outside) -> [32, 128, 64, 64]; ported from a CPU loop nest: one thread per output location (n, oh, ow) on a 1-D launch looping over the channels, early return, the corners kept in small fixed-size local arrays (`int cy[4]`, `cx[4]`, `float cw[4]`, `bool inside[4]`) filled by hand and walked by a constant loop with `continue` over the corners outside the image, `floor` (the double function's name) on floats, `static_cast`, hoisted plane sizes and pointers.

/* @optiml
   sizes:   N=32 C=128 H=64 W=64 Ho=64 Wo=64   # x 64 MiB in, grid 1 MiB in, y 64 MiB out; 0.14 GFLOP
   check:   N=1 C=1 H=1 W=1 Ho=1 Wo=1; N=2 C=3 H=5 W=7 Ho=4 Wo=6; N=1 C=5 H=17 W=9 Ho=11 Wo=33; N=3 C=2 H=2 W=3 Ho=20 Wo=13; N=1 C=64 H=8 W=8 Ho=16 Wo=17; N=2 C=1 H=40 W=1 Ho=3 Wo=50
   x:       in  float[N*C*H*W]
   grid:    in  float[N*Ho*Wo*2] uniform(-1.1,1.1)
   y:       out float[N*C*Ho*Wo]
   launch:  grid=cdiv(N*Ho*Wo,128) block=128
   flops:   8*N*C*Ho*Wo + 20*N*Ho*Wo
   tol:     1e-5
*/
__global__ void grid_sample_bilinear(const float* x, const float* grid, float* y, int N, int C, int H, int W, int Ho,
                                     int Wo)
{
    const int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= N * Ho * Wo)
        return;
    const int ow = idx % Wo;
    const int oh = (idx / Wo) % Ho;
    const int n = idx / (Wo * Ho);

    const float gx = grid[2 * idx];
    const float gy = grid[2 * idx + 1];
    const float ix = ((gx + 1.0f) * static_cast<float>(W) - 1.0f) / 2.0f;
    const float iy = ((gy + 1.0f) * static_cast<float>(H) - 1.0f) / 2.0f;
    const int x0 = static_cast<int>(floor(ix));
    const int y0 = static_cast<int>(floor(iy));
    const float fx = ix - static_cast<float>(x0);
    const float fy = iy - static_cast<float>(y0);

    int cy[4], cx[4];
    float cw[4];
    bool inside[4];
    cy[0] = y0;     cx[0] = x0;     cw[0] = (1.0f - fx) * (1.0f - fy);
    cy[1] = y0;     cx[1] = x0 + 1; cw[1] = fx * (1.0f - fy);
    cy[2] = y0 + 1; cx[2] = x0;     cw[2] = (1.0f - fx) * fy;
    cy[3] = y0 + 1; cx[3] = x0 + 1; cw[3] = fx * fy;
    for (int k = 0; k < 4; ++k)
        inside[k] = cy[k] >= 0 && cy[k] < H && cx[k] >= 0 && cx[k] < W;

    const size_t in_plane = static_cast<size_t>(H) * W;
    const size_t out_plane = static_cast<size_t>(Ho) * Wo;
    const float* xn = x + static_cast<size_t>(n) * C * in_plane;
    float* yn = y + static_cast<size_t>(n) * C * out_plane + static_cast<size_t>(oh) * Wo + ow;
    for (int c = 0; c < C; ++c) {
        const float* plane = xn + static_cast<size_t>(c) * in_plane;
        float v = 0.0f;
        for (int k = 0; k < 4; ++k) {
            if (!inside[k])
                continue;
            v += cw[k] * plane[cy[k] * W + cx[k]];
        }
        yn[static_cast<size_t>(c) * out_plane] = v;
    }
}
