"""A development probe, not the product's timing protocol: hand-written variants of three examples timed with CUDA
events through CuPy (median of 30 launches after 3 warm-up ones, inputs larger than L2), to decide which rewrite
rules were worth building: float2/float4 loads for maxpool2x2 (-> pair_loads), thread coarsening (nothing),
float4 row loads for row_max (nothing), float4 loads in a grid-stride dot product (-> vectorize_grid_stride).

    python3 bench/vector_loads_probe.py        (on the GPU machine; writes $OUT/probe.json)
"""
import cupy as cp, numpy as np, json, os, sys

def bench(kernel, grid, block, args, runs=30):
    for _ in range(3): kernel(grid, block, args)
    cp.cuda.Device().synchronize()
    times = []
    for _ in range(runs):
        s, e = cp.cuda.Event(), cp.cuda.Event()
        s.record(); kernel(grid, block, args); e.record(); e.synchronize()
        times.append(cp.cuda.get_elapsed_time(s, e))
    return float(np.median(times))

def cdiv(a, b): return (a + b - 1) // b
results = {}

# ---------------- maxpool 8192x8192
MP = r'''
extern "C" __global__ void naive(const float* img, float* out, int rows, int cols) {
    int out_rows = (rows + 1) / 2, out_cols = (cols + 1) / 2;
    int oc = blockIdx.x * blockDim.x + threadIdx.x, orow = blockIdx.y * blockDim.y + threadIdx.y;
    if (orow < out_rows && oc < out_cols) {
        int r = 2 * orow, c = 2 * oc;
        float m = img[r * cols + c];
        if (c + 1 < cols && img[r * cols + c + 1] > m) m = img[r * cols + c + 1];
        if (r + 1 < rows && img[(r + 1) * cols + c] > m) m = img[(r + 1) * cols + c];
        if (r + 1 < rows && c + 1 < cols && img[(r + 1) * cols + c + 1] > m) m = img[(r + 1) * cols + c + 1];
        out[orow * out_cols + oc] = m;
    }
}
template <int K> __device__ void coarse_body(const float* __restrict__ img, float* __restrict__ out, int rows, int cols) {
    int out_rows = (rows + 1) / 2, out_cols = (cols + 1) / 2;
    int oc = blockIdx.x * blockDim.x + threadIdx.x;
    #pragma unroll
    for (int k = 0; k < K; ++k) {
        int orow = (blockIdx.y * K + k) * blockDim.y + threadIdx.y;
        if (orow < out_rows && oc < out_cols) {
            int r = 2 * orow, c = 2 * oc;
            float m = img[r * cols + c];
            if (c + 1 < cols && img[r * cols + c + 1] > m) m = img[r * cols + c + 1];
            if (r + 1 < rows && img[(r + 1) * cols + c] > m) m = img[(r + 1) * cols + c];
            if (r + 1 < rows && c + 1 < cols && img[(r + 1) * cols + c + 1] > m) m = img[(r + 1) * cols + c + 1];
            out[orow * out_cols + oc] = m;
        }
    }
}
extern "C" __global__ void coarse1(const float* __restrict__ img, float* __restrict__ out, int rows, int cols) { coarse_body<1>(img, out, rows, cols); }
extern "C" __global__ void coarse2(const float* __restrict__ img, float* __restrict__ out, int rows, int cols) { coarse_body<2>(img, out, rows, cols); }
extern "C" __global__ void coarse4(const float* __restrict__ img, float* __restrict__ out, int rows, int cols) { coarse_body<4>(img, out, rows, cols); }
// float2 loads: each output's two pixels of a row in one 8-byte load (cols even: every pair aligned)
extern "C" __global__ void pairs(const float* __restrict__ img, float* __restrict__ out, int rows, int cols) {
    int out_rows = (rows + 1) / 2, out_cols = (cols + 1) / 2;
    int oc = blockIdx.x * blockDim.x + threadIdx.x, orow = blockIdx.y * blockDim.y + threadIdx.y;
    if (orow < out_rows && oc < out_cols) {
        int r = 2 * orow, c = 2 * oc;
        float2 a = *reinterpret_cast<const float2*>(img + r * cols + c);
        float2 b = *reinterpret_cast<const float2*>(img + (r + 1) * cols + c);
        out[orow * out_cols + oc] = fmaxf(fmaxf(a.x, a.y), fmaxf(b.x, b.y));
    }
}
// float4 loads: two outputs per thread
extern "C" __global__ void quads(const float* __restrict__ img, float* __restrict__ out, int rows, int cols) {
    int out_rows = (rows + 1) / 2, out_cols = (cols + 1) / 2;
    int oc = 2 * (blockIdx.x * blockDim.x + threadIdx.x), orow = blockIdx.y * blockDim.y + threadIdx.y;
    if (orow < out_rows && oc < out_cols) {
        int r = 2 * orow, c = 2 * oc;
        float4 a = *reinterpret_cast<const float4*>(img + r * cols + c);
        float4 b = *reinterpret_cast<const float4*>(img + (r + 1) * cols + c);
        float2 o = make_float2(fmaxf(fmaxf(a.x, a.y), fmaxf(b.x, b.y)), fmaxf(fmaxf(a.z, a.w), fmaxf(b.z, b.w)));
        *reinterpret_cast<float2*>(out + orow * out_cols + oc) = o;
    }
}
'''
m = cp.RawModule(code=MP, options=("-std=c++17",), name_expressions=None)
rows = cols = 8192
img = cp.random.rand(rows * cols, dtype=cp.float32); out = cp.empty((rows // 2) * (cols // 2), dtype=cp.float32)
a = (img, out, np.int32(rows), np.int32(cols))
oc, orr = cols // 2, rows // 2
mp = {}
mp["naive 16x16"] = bench(m.get_function("naive"), (cdiv(oc, 16), cdiv(orr, 16)), (16, 16), a)
for bx, by in ((32, 8), (64, 4), (32, 4), (128, 2)):
    mp[f"naive {bx}x{by}"] = bench(m.get_function("naive"), (cdiv(oc, bx), cdiv(orr, by)), (bx, by), a)
    mp[f"restrict {bx}x{by}"] = bench(m.get_function("coarse1"), (cdiv(oc, bx), cdiv(orr, by)), (bx, by), a)
    for k in (2, 4):
        mp[f"coarse{k} {bx}x{by}"] = bench(m.get_function(f"coarse{k}"), (cdiv(oc, bx), cdiv(orr, by * k)), (bx, by), a)
    mp[f"pairs {bx}x{by}"] = bench(m.get_function("pairs"), (cdiv(oc, bx), cdiv(orr, by)), (bx, by), a)
    mp[f"quads {bx}x{by}"] = bench(m.get_function("quads"), (cdiv(oc // 2, bx), cdiv(orr, by)), (bx, by), a)
results["maxpool2x2"] = mp

# ---------------- row_max 65536 x 1024
RM = r'''
template <int W, int R, int V>
__device__ void rowmax(const float* __restrict__ x, float* __restrict__ out, int rows, int cols) {
    int row = blockIdx.x * R + threadIdx.x / W;
    const int rank = threadIdx.x % W, group = threadIdx.x / W;
    __shared__ float part[32];
    if (row < rows) {
        float m = __int_as_float(0xff800000);
        if (V == 4 && cols % 4 == 0) {
            const float4* xr = reinterpret_cast<const float4*>(x + (size_t)row * cols);
            for (int q = rank; q < cols / 4; q += W) { float4 v = xr[q]; m = fmaxf(m, fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w))); }
        } else {
            for (int c = rank; c < cols; c += W) m = fmaxf(m, x[row * cols + c]);
        }
        for (int o = 16; o > 0; o /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
        if (W > 32) {
            if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = m;
            asm volatile("bar.sync %0, %1;" :: "r"(group + 1), "r"(W) : "memory");
            m = part[group * (W / 32)];
            for (int w = 1; w < W / 32; w++) m = fmaxf(m, part[group * (W / 32) + w]);
        }
        if (rank == 0) out[row] = m;
    }
}
extern "C" __global__ void s64x4(const float* x, float* o, int r, int c) { rowmax<64, 4, 1>(x, o, r, c); }
extern "C" __global__ void v64x4(const float* x, float* o, int r, int c) { rowmax<64, 4, 4>(x, o, r, c); }
extern "C" __global__ void s32x8(const float* x, float* o, int r, int c) { rowmax<32, 8, 1>(x, o, r, c); }
extern "C" __global__ void v32x8(const float* x, float* o, int r, int c) { rowmax<32, 8, 4>(x, o, r, c); }
extern "C" __global__ void s128x2(const float* x, float* o, int r, int c) { rowmax<128, 2, 1>(x, o, r, c); }
extern "C" __global__ void v128x2(const float* x, float* o, int r, int c) { rowmax<128, 2, 4>(x, o, r, c); }
extern "C" __global__ void s256x1(const float* x, float* o, int r, int c) { rowmax<256, 1, 1>(x, o, r, c); }
extern "C" __global__ void v256x1(const float* x, float* o, int r, int c) { rowmax<256, 1, 4>(x, o, r, c); }
'''
m = cp.RawModule(code=RM)
R, C = 65536, 1024
x = cp.random.rand(R * C, dtype=cp.float32); o = cp.empty(R, dtype=cp.float32)
rm = {}
for name, (w, r) in {"64x4": (64, 4), "32x8": (32, 8), "128x2": (128, 2), "256x1": (256, 1)}.items():
    for v in "sv":
        rm[v + name] = bench(m.get_function(v + name), (cdiv(R, r),), (w * r,), (x, o, np.int32(R), np.int32(C)))
        if v == "v": assert float(o.max()) > 0.99
results["row_max"] = rm

# ---------------- dot 2^25
DOT = r'''
template <int V, int U>
__device__ void dot(const float* __restrict__ a, const float* __restrict__ b, float* result, int n) {
    float acc = 0.f;
    if (V == 4) {
        #pragma unroll U
        for (int q = blockIdx.x * blockDim.x + threadIdx.x; q < n / 4; q += blockDim.x * gridDim.x) {
            float4 x = reinterpret_cast<const float4*>(a)[q], y = reinterpret_cast<const float4*>(b)[q];
            acc += x.x * y.x; acc += x.y * y.y; acc += x.z * y.z; acc += x.w * y.w;
        }
        for (int i = n / 4 * 4 + blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) acc += a[i] * b[i];
    } else {
        #pragma unroll U
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) acc += a[i] * b[i];
    }
    __shared__ float p[32];
    for (int o = 16; o > 0; o /= 2) acc += __shfl_down_sync(0xffffffffu, acc, o);
    if (threadIdx.x % 32 == 0) p[threadIdx.x / 32] = acc;
    __syncthreads();
    if (threadIdx.x < 32) {
        acc = threadIdx.x < blockDim.x / 32 ? p[threadIdx.x] : 0.f;
        for (int o = 16; o > 0; o /= 2) acc += __shfl_down_sync(0xffffffffu, acc, o);
        if (threadIdx.x == 0) atomicAdd(result, acc);
    }
}
extern "C" __global__ void s8(const float* a, const float* b, float* r, int n) { dot<1, 8>(a, b, r, n); }
extern "C" __global__ void v1(const float* a, const float* b, float* r, int n) { dot<4, 1>(a, b, r, n); }
extern "C" __global__ void v2(const float* a, const float* b, float* r, int n) { dot<4, 2>(a, b, r, n); }
extern "C" __global__ void v8(const float* a, const float* b, float* r, int n) { dot<4, 8>(a, b, r, n); }
'''
m = cp.RawModule(code=DOT)
n = 1 << 25
A = cp.random.rand(n, dtype=cp.float32); B = cp.random.rand(n, dtype=cp.float32); res = cp.zeros(1, dtype=cp.float32)
dt = {}
for name in ("s8", "v1", "v2", "v8"):
    for block, per_sm in ((256, 8), (512, 4), (1024, 2), (256, 4)):
        grid = min(cdiv(n, block * (8 if name == "s8" else 4)), per_sm * 132)
        dt[f"{name} b{block} x{per_sm}"] = bench(m.get_function(name), (grid,), (block,), (A, B, res, np.int32(n)))
results["dot"] = dt

floors = {"maxpool2x2": (8192 * 8192 + 4096 * 4096) * 4, "row_max": (R * C + R) * 4, "dot": 2 * n * 4}
print(cp.cuda.runtime.getDeviceProperties(0)["name"].decode())
for what, table in results.items():
    best = min(table.values())
    print(f"== {what}: bytes / best time = {floors[what] / best / 1e6:.0f} GB/s")
    for k, v in sorted(table.items(), key=lambda kv: kv[1]):
        print(f"  {k:24s} {v*1000:8.1f} us  {v/best:5.3f}")
json.dump(results, open(os.path.join(os.environ.get("OUT", "/tmp"), "probe.json"), "w"), indent=1)
