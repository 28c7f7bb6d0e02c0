// amax = max(amax, max_i |x[i]|): the absolute maximum of a tensor that FP8 delayed scaling records before a cast (Transformer Engine's amax, `torch.amax(x.abs())` folded into the running amax buffer; the FP8 scale is then 448 / amax for E4M3), here of a 64 M-element fp32 tensor (a 16384 x 4096 activation); written in modern CUDA C++ with a warp-shuffle reduction: `constexpr int kThreads` / `kWarps` and `constexpr unsigned kFullMask`, a `__device__ __forceinline__` `warp_max` over `__shfl_down_sync`, a grid-stride loop with an `auto` counter over a fixed 4096-block grid (`grid=min(cdiv(n,256),4096)`), `float local{0.0f}`, the per-warp maxima staged in `__shared__` memory, and one `atomicMax` a block on the float's bits as `unsigned int` (`__float_as_uint`: non-negative floats order as their bit patterns), `amax` `inout` starting at 0; the first plan used cooperative groups (`cg::reduce`-style tile reductions), replaced by the plain intrinsics because the CPU emulator cannot compile `cooperative_groups.h`; x `normal(0,1)`.

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr unsigned kFullMask = 0xffffffffu;

__device__ __forceinline__ float warp_max(float v)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) v = fmaxf(v, __shfl_down_sync(kFullMask, v, offset));
    return v;
}

/* @optiml
   sizes:  n=67108864   # x 256 MiB in, amax 4 B in and out; 67 MFLOP (one max a value)
   check:  n=1; n=2; n=31; n=255; n=1023; n=1025; n=4097; n=100003; n=1048577
   x:      in    float[n] normal(0,1)
   amax:   inout float[1] const(0)
   launch: grid=min(cdiv(n,256),4096) block=256
   flops:  n
   tol:    1e-6
*/
__global__ void amax_abs(const float* __restrict__ x, float* __restrict__ amax, long long n)
{
    __shared__ float warp_amax[kWarps];

    float local{0.0f};
    const auto stride = static_cast<long long>(gridDim.x) * kThreads;
    for (auto i = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x; i < n; i += stride) {
        local = fmaxf(local, fabsf(x[i]));
    }

    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    local = warp_max(local);
    if (lane == 0) warp_amax[warp] = local;
    __syncthreads();

    if (warp == 0) {
        local = (lane < kWarps) ? warp_amax[lane] : 0.0f;
        local = warp_max(local);
        if (lane == 0) atomicMax(reinterpret_cast<unsigned int*>(amax), __float_as_uint(local));
    }
}
