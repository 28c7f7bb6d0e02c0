// y[b, a*ny*nx + gy*nx + gx, c] = s (the sigmoid of p = x[b, a*(nc+5) + c, gy, gx]) with, for c = 0, 1, (2 s - 0.5 + g) * stride (g = gx, gy) and, for c = 2, 3, (2 s)^2 * anchor[a] (width, height in pixels), over na = 3 anchors: YOLOv5's `Detect` head at inference (`x.view(bs, na, no, ny, nx).permute(0, 1, 3, 4, 2)`, `sigmoid`, `xy = (xy * 2 + grid) * stride`, `wh = (wh * 2) ** 2 * anchor_grid`, `z = y.view(bs, na * nx * ny, no)`) on the stride-8 level (P3) at 640 x 640, 80 x 80 cells, 80 classes (no = 85), batch 16; hand-translated from a Triton kernel: `pid = tl.program_id(0)`, `offs = pid * BLOCK + tl.arange(0, BLOCK)`, `mask = offs < total` as a `bool`, the `tl.arange` of 1024 spread as 4 elements on each of 256 threads (`constexpr int BLOCK`, `NUM_THREADS`, `#pragma unroll`), the output offset decoded by `/` and `%` into (b, a, gy, gx, c), the anchors a `constexpr float` local table (P3's (10,13), (16,30), (33,23)), `auto` and `const auto` locals and nested ternaries on c; raw head outputs `uniform(-6,6)`, stride 8.

constexpr int NA = 3;            // anchors per cell
constexpr int BLOCK = 1024;      // tl.constexpr BLOCK
constexpr int NUM_THREADS = 256; // num_warps = 8

/* @optiml
   sizes:  B=16 nc=80 ny=80 nx=80   # x and y 99.6 MiB each (26.1 M elements); 287 MFLOP (sigmoid counted as 4)
   check:  B=1 nc=1 ny=1 nx=1; B=2 nc=3 ny=5 nx=7; B=1 nc=80 ny=13 nx=13; B=3 nc=2 ny=20 nx=21; B=1 nc=80 ny=40 nx=40
   x:      in  float[B*3*(nc+5)*ny*nx] uniform(-6,6)
   y:      out float[B*3*(nc+5)*ny*nx]
   stride: 8.0
   launch: grid=cdiv(B*3*(nc+5)*ny*nx,1024) block=256
   flops:  11*B*3*(nc+5)*ny*nx
   tol:    1e-5
*/
__global__ void yolo_detect_decode(const float* __restrict__ x, float* __restrict__ y,
                                   int B, int nc, int ny, int nx, float stride)
{
    constexpr float anchors[NA][2] = {{10.0f, 13.0f}, {16.0f, 30.0f}, {33.0f, 23.0f}};
    const int no = nc + 5;
    const auto total = static_cast<long long>(B) * NA * no * ny * nx;
    const auto pid = static_cast<long long>(blockIdx.x);   // tl.program_id(0)

#pragma unroll
    for (int r = 0; r < BLOCK / NUM_THREADS; ++r) {
        const long long offs = pid * BLOCK + r * NUM_THREADS + threadIdx.x;   // pid * BLOCK + tl.arange(0, BLOCK)
        const bool mask = offs < total;
        if (!mask) continue;

        // output layout [B, NA, ny, nx, no]
        const int c = static_cast<int>(offs % no);
        auto rest = offs / no;
        const int gx = static_cast<int>(rest % nx);
        rest /= nx;
        const int gy = static_cast<int>(rest % ny);
        rest /= ny;
        const int a = static_cast<int>(rest % NA);
        const auto b = rest / NA;

        // input layout [B, NA * no, ny, nx]
        const long long src = ((b * NA + a) * no + c) * ny * nx + static_cast<long long>(gy) * nx + gx;
        const float s = 1.0f / (1.0f + expf(-x[src]));
        const float g = (c == 0) ? static_cast<float>(gx) : static_cast<float>(gy);
        y[offs] = (c < 2) ? (s * 2.0f - 0.5f + g) * stride
                : (c < 4) ? (s * 2.0f) * (s * 2.0f) * anchors[a][c - 2]
                : s;
    }
}
