"""What the timing protocol's L2 flush costs a kernel: an empty kernel and three reductions of 2-256 MiB, timed
(CUDA events, median of 50) after the evaluator's flush (writing a buffer twice the L2), after a flush that only
reads such a buffer, after both, and with none. `python3 bench/flush_probe.py` on the GPU machine
(bench/results/ir-h200/issue16-full/flush-probe.md)."""

import cupy as cp

from cupy_timing import median_us

SOURCE = r"""
extern "C" __global__ void empty(int* count) {}

// The block's threads' counts summed (warp shuffles, then one value a warp) and added with one atomic.
__device__ void block_count(int sum, int* count)
{
    for (int offset = 16; offset > 0; offset >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    __shared__ int partials[32];
    if (threadIdx.x % 32 == 0) partials[threadIdx.x / 32] = sum;
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int warp = 1; warp < blockDim.x / 32; ++warp) sum += partials[warp];
        atomicAdd(count, sum);
    }
}

// 16 points a thread, a block's points contiguous, one atomic a block (the privatize schedule's shape).
extern "C" __global__ void count_items(const float* __restrict__ x, int* count, float threshold, int n)
{
    int sum = 0;
    int first = blockIdx.x * (blockDim.x * 16) + threadIdx.x;
    #pragma unroll
    for (int item = 0; item < 16; ++item) {
        int i = first + item * blockDim.x;
        if (i < n && x[i] > threshold) sum += 1;
    }
    block_count(sum, count);
}

// A grid-stride loop of float4 reads, one atomic a block.
extern "C" __global__ void count_grid_stride(const float4* __restrict__ x, int* count, float threshold, int n4)
{
    int sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) {
        float4 v = x[i];
        sum += (v.x > threshold) + (v.y > threshold) + (v.z > threshold) + (v.w > threshold);
    }
    block_count(sum, count);
}
"""


def main() -> None:
    module = cp.RawModule(code=SOURCE)
    properties = cp.cuda.runtime.getDeviceProperties(0)
    l2, sms = properties["l2CacheSize"], properties["multiProcessorCount"]
    flush_buffer = cp.empty(2 * l2, dtype=cp.uint8)
    words = flush_buffer.view(cp.uint32)
    read_sum = cp.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "read_sum")
    sink = cp.empty((), dtype=cp.uint32)
    flushes = {
        "write": lambda: flush_buffer.fill(0),
        "read": lambda: read_sum(words, out=sink),
        "write+read": lambda: (flush_buffer.fill(0), read_sum(words, out=sink)),
        "none": lambda: None,
    }

    count = cp.zeros(1, cp.int32)
    threshold = cp.float32(0.25)
    rows = []
    for n in (2**19, 2**22, 2**24, 2**26):
        x = cp.random.rand(n, dtype=cp.float32)
        kernels = {
            "empty": lambda: module.get_function("empty")((1,), (32,), (count,)),
            "items16": lambda: module.get_function("count_items")(
                ((n + 4095) // 4096,), (256,), (x, count, threshold, cp.int32(n))),
            "gs4 x4sm": lambda: module.get_function("count_grid_stride")(
                (sms * 4,), (256,), (x, count, threshold, cp.int32(n // 4))),
            "gs4 x8sm": lambda: module.get_function("count_grid_stride")(
                (sms * 8,), (256,), (x, count, threshold, cp.int32(n // 4))),
            "cupy sum": lambda: x.sum(),
        }
        for name, launch in kernels.items():
            rows.append((n * 4 / 2**20, name, {flush: median_us(launch, run, runs=50)
                                                  for flush, run in flushes.items()}))
    print(properties["name"].decode(), "L2", l2 >> 20, "MiB")
    print(f"{'MiB':>6} {'kernel':10} " + " ".join(f"{flush:>11}" for flush in flushes))
    for mib, name, times in rows:
        print(f"{mib:6.0f} {name:10} " + " ".join(f"{us:9.1f}us" for us in times.values()))


if __name__ == "__main__":
    main()
