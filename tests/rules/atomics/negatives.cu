// Kernels with atomics that neither rule may rewrite: each says why.

// The atomic's result is used (stream compaction): every thread needs its own slot.
/* @optiml
   sizes:  n=1048576
   x:      in    float[n]
   out:    out   float[n]
   counter: inout int[1] const(0)
   launch: grid=cdiv(n,256) block=256
*/
__global__ void compact_positive(const float* x, float* out, int* counter, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        if (x[i] > 0.0f) {
            int slot = atomicAdd(counter, 1);
            out[slot] = x[i];
        }
    }
}

// A scatter onto as many bins as elements: too many for shared memory, and no address is shared.
/* @optiml
   sizes:  n=1048576 m=1048576
   x:      in    float[n]
   idx:    in    int[n] range(0,1048576)
   y:      inout float[m] const(0)
   launch: grid=cdiv(n,256) block=256
*/
__global__ void scatter_add(const float* x, const int* idx, float* y, int n, int m)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&y[idx[i]], x[i]);
}

// The accumulator is read by the kernel itself: the order of the atomics is visible.
/* @optiml
   sizes:  n=1048576
   x:      in    float[n]
   total:  inout float[1] const(0)
   limit:  100.0
   launch: grid=cdiv(n,256) block=256
*/
__global__ void capped_sum(const float* x, float* total, float limit, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        if (total[0] < limit) atomicAdd(total, x[i]);
    }
}

// A return inside the per-element code: that thread would miss the block's barrier.
/* @optiml
   sizes:  n=1048576
   x:      in    float[n]
   sum:    inout float[1] const(0)
   launch: grid=cdiv(n,256) block=256
*/
__global__ void positive_sum_return(const float* x, float* sum, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if (x[i] < 0.0f) return;
    atomicAdd(sum, x[i]);
}

// Already a block reduction: it synchronizes and uses shared memory.
/* @optiml
   sizes:  n=1048576
   x:      in    float[n]
   sum:    inout float[1] const(0)
   launch: grid=cdiv(n,256) block=256
*/
__global__ void block_sum(const float* x, float* sum, int n)
{
    __shared__ float partial[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    partial[threadIdx.x] = i < n ? x[i] : 0.0f;
    __syncthreads();
    if (threadIdx.x == 0) {
        float s = 0.0f;
        for (int k = 0; k < blockDim.x; ++k) s += partial[k];
        atomicAdd(sum, s);
    }
}

// A parameter changed per thread: the slot differs between threads (and a loop would compound the change).
/* @optiml
   sizes:  n=1048576
   x:      in    int[n]
   sums:   inout int[8] const(0)
   k:      3
   launch: grid=cdiv(n,256) block=256
*/
__global__ void shifted_slot(const int* x, int* sums, int k, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    k += i & 1;
    if (i < n) atomicAdd(&sums[k], x[i]);
}

// atomicExch and atomicCAS are not reductions.
/* @optiml
   sizes:  n=1048576
   x:      in    int[n]
   last:   inout int[1] const(0)
   launch: grid=cdiv(n,256) block=256
*/
__global__ void last_writer(const int* x, int* last, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicExch(last, x[i]);
}

// The per-element code uses the thread's position beyond the index (a 2-D grid).
/* @optiml
   sizes:  n=1048576
   x:      in    float[n*4]
   sums:   inout float[4] const(0)
   launch: grid=(cdiv(n,256),4) block=256
*/
__global__ void four_sums(const float* x, float* sums, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&sums[blockIdx.y], x[blockIdx.y * n + i]);
}

// A counter checked before it is bumped: the bins are read outside the atomics.
/* @optiml
   sizes:  n=1048576
   keys:   in    int[n] range(0,64)
   bins:   inout unsigned int[64] const(0)
   cap:    1000
   launch: grid=cdiv(n,256) block=256
*/
__global__ void capped_histogram(const int* keys, unsigned int* bins, unsigned int cap, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        if (bins[keys[i]] < cap) atomicAdd(&bins[keys[i]], 1u);
    }
}

// A bin count that is a size symbol, small at the benchmark size but not at a check size.
/* @optiml
   sizes:  n=1048576 nbins=64
   check:  n=1000 nbins=100000
   keys:   in    int[n] range(0,64)
   bins:   inout unsigned int[nbins] const(0)
   launch: grid=cdiv(n,256) block=256
*/
__global__ void sized_histogram(const int* keys, unsigned int* bins, int n, int nbins)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[keys[i] % nbins], 1u);
}
