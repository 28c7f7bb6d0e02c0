"""Hand-written register windows before the schedule existed: a 3x3 four-channel convolution (4096^2) and a 15-tap
1-D convolution (2^25), naive and with each thread's 2, 4 or 8 consecutive outputs sharing a window of the input
that the tap loop slides, at several block shapes; cold L2, CUDA events, median of 30. `python3
bench/window_probe.py` on the GPU machine (bench/results/ir-h200/slide-windows/probe.md)."""

import cupy as cp

from cupy_timing import median_us

CONV2D_NAIVE = r"""
extern "C" __global__ void conv2d(const float* img, const float* wt, float* out, int C, int H, int W)
{
    int ox = blockIdx.x * blockDim.x + threadIdx.x, oy = blockIdx.y * blockDim.y + threadIdx.y;
    if (ox >= W || oy >= H) return;
    float acc = 0.f;
    for (int c = 0; c < C; ++c)
        for (int ky = 0; ky < 3; ++ky) {
            int iy = oy + ky - 1;
            if (iy < 0 || iy >= H) continue;
            for (int kx = 0; kx < 3; ++kx) {
                int ix = ox + kx - 1;
                if (ix < 0 || ix >= W) continue;
                acc += img[(c * H + iy) * W + ix] * wt[(c * 3 + ky) * 3 + kx];
            }
        }
    out[oy * W + ox] = acc;
}"""

# POINTS consecutive outputs a thread; per row of taps, a window of POINTS inputs that the kx loop slides by one.
CONV2D_WINDOW = r"""
extern "C" __global__ void conv2d(const float* __restrict__ img, const float* __restrict__ wt,
                                  float* __restrict__ out, int C, int H, int W)
{
    int first = (blockIdx.x * blockDim.x + threadIdx.x) * POINTS, oy = blockIdx.y * blockDim.y + threadIdx.y;
    if (first >= W || oy >= H) return;
    const long length = (long)C * H * W;
    float acc[POINTS];
    for (int j = 0; j < POINTS; ++j) acc[j] = 0.f;
    for (int c = 0; c < C; ++c)
        for (int ky = 0; ky < 3; ++ky) {
            int iy = oy + ky - 1;
            if (iy < 0 || iy >= H) continue;
            const long row = (long)(c * H + iy) * W - 1;
            float window[POINTS];
            #pragma unroll
            for (int j = 0; j < POINTS; ++j) {
                long at = row + first + j;
                window[j] = at >= 0 && at < length ? img[at] : 0.f;
            }
            #pragma unroll
            for (int kx = 0; kx < 3; ++kx) {
                float w = wt[(c * 3 + ky) * 3 + kx];
                #pragma unroll
                for (int j = 0; j < POINTS; ++j) {
                    int ix = first + j + kx - 1;
                    if (ix >= 0 && ix < W) acc[j] += window[j] * w;
                }
                #pragma unroll
                for (int j = 0; j < POINTS - 1; ++j) window[j] = window[j + 1];
                if (kx + 1 < 3) {
                    long at = row + first + kx + POINTS;
                    window[POINTS - 1] = at >= 0 && at < length ? img[at] : 0.f;
                }
            }
        }
    for (int j = 0; j < POINTS; ++j)
        if (first + j < W) out[oy * W + first + j] = acc[j];
}"""

CONV1D_NAIVE = r"""
extern "C" __global__ void conv1d(const float* x, const float* w, float* out, int n, int K)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n - K + 1) {
        float acc = 0.f;
        for (int k = 0; k < K; k++) acc += x[i + k] * w[k];
        out[i] = acc;
    }
}"""

CONV1D_WINDOW = r"""
extern "C" __global__ void conv1d(const float* __restrict__ x, const float* __restrict__ w,
                                  float* __restrict__ out, int n, int K)
{
    int first = (blockIdx.x * blockDim.x + threadIdx.x) * POINTS, outputs = n - K + 1;
    if (first >= outputs) return;
    float acc[POINTS], window[POINTS];
    #pragma unroll
    for (int j = 0; j < POINTS; ++j) {
        acc[j] = 0.f;
        window[j] = first + j < n ? x[first + j] : 0.f;
    }
    for (int k = 0; k < K; k++) {
        float tap = w[k];
        #pragma unroll
        for (int j = 0; j < POINTS; ++j) acc[j] += window[j] * tap;
        #pragma unroll
        for (int j = 0; j < POINTS - 1; ++j) window[j] = window[j + 1];
        if (k + 1 < K) window[POINTS - 1] = first + k + POINTS < n ? x[first + k + POINTS] : 0.f;
    }
    #pragma unroll
    for (int j = 0; j < POINTS; ++j)
        if (first + j < outputs) out[first + j] = acc[j];
}"""

L2_FLUSH = cp.empty(2 * 60 * 2**20, dtype=cp.uint8)


def timed(launch) -> float:
    return median_us(launch, lambda: L2_FLUSH.fill(0), runs=30, warmups=1)


def kernel(source: str, name: str, points: int | None = None):
    return cp.RawKernel(source.replace("POINTS", str(points)) if points else source, name)


def conv2d_rows(results: dict) -> None:
    C, H, W = 4, 4096, 4096
    img, wt = cp.random.rand(C * H * W, dtype=cp.float32), cp.random.rand(C * 9, dtype=cp.float32)
    out = cp.zeros(H * W, cp.float32)
    args = (img, wt, out, cp.int32(C), cp.int32(H), cp.int32(W))
    naive = kernel(CONV2D_NAIVE, "conv2d")
    naive((W // 16, H // 16), (16, 16), args)
    expected = out.copy()
    results["conv2d naive"] = timed(lambda: naive((W // 16, H // 16), (16, 16), args))
    for points in (2, 4, 8):
        windowed = kernel(CONV2D_WINDOW, "conv2d", points)
        for bx, by in ((64, 4), (32, 8), (128, 2), (256, 1)):
            grid = ((W // points + bx - 1) // bx, (H + by - 1) // by)
            out.fill(0)
            windowed(grid, (bx, by), args)
            error = float(cp.abs(out - expected).max())
            results[f"conv2d window points={points} block={bx}x{by} err={error:.1e}"] = \
                timed(lambda: windowed(grid, (bx, by), args))
    results["conv2d floor at 4.8 TB/s"] = (C * H * W + H * W) * 4 / 4.8e12 * 1e6


def conv1d_rows(results: dict) -> None:
    n, K = 2**25, 15
    x, w = cp.random.rand(n, dtype=cp.float32), cp.random.rand(K, dtype=cp.float32)
    out = cp.zeros(n - K + 1, cp.float32)
    args = (x, w, out, cp.int32(n), cp.int32(K))
    naive = kernel(CONV1D_NAIVE, "conv1d")
    grid = ((n - K + 1 + 255) // 256,)
    naive(grid, (256,), args)
    expected = out.copy()
    results["conv1d naive"] = timed(lambda: naive(grid, (256,), args))
    for points in (2, 4, 8, 16):
        windowed = kernel(CONV1D_WINDOW, "conv1d", points)
        for bx in (128, 256):
            blocks = (((n - K + 1) // points + bx) // bx,)
            out.fill(0)
            windowed(blocks, (bx,), args)
            error = float(cp.abs(out - expected).max())
            results[f"conv1d window points={points} block={bx} err={error:.1e}"] = \
                timed(lambda: windowed(blocks, (bx,), args))
    results["conv1d floor at 4.8 TB/s"] = 2 * n * 4 / 4.8e12 * 1e6


def main() -> None:
    results: dict[str, float] = {}
    conv2d_rows(results)
    conv1d_rows(results)
    print(cp.cuda.runtime.getDeviceProperties(0)["name"].decode())
    for name, us in results.items():
        print(f"{us:9.1f} us  {name}")


if __name__ == "__main__":
    main()
