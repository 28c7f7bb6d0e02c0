// Grid-stride loops written by hand: where vectorize_grid_stride applies (the first four) and where it must not
// (the rest), each with a contract so that the rewrites can be verified on the GPU.

// In place, read and written at the index: one 16-byte load and store per array and iteration.
/* @optiml
   sizes:  n=16777216
   check:  n=1; n=3; n=4; n=1001
   x:      in    float[n]
   y:      inout float[n]
   a:      2.5
   launch: grid=min(cdiv(n,256),1056) block=256
*/
__global__ void saxpy_grid(float a, const float* x, float* y, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        y[i] = a * x[i] + y[i];
    }
}

// A count by atomics on one address (they commute: the lanes may make them in any order), an unsigned index.
/* @optiml
   sizes:  n=8388608
   check:  n=1; n=5; n=999
   x:      in    float[n]
   count:  inout unsigned int[1] const(0)
   launch: grid=min(cdiv(n,128),512) block=128
*/
__global__ void count_above_grid(const float* x, unsigned int* count, unsigned int n)
{
    #pragma unroll 2
    for (unsigned int i = threadIdx.x + blockDim.x * blockIdx.x; i < n; i += gridDim.x * blockDim.x)
        if (x[i] > 0.5f) atomicAdd(count, 1u);
}

// The index in a value, a bound computed before the loop, a body of several statements.
/* @optiml
   sizes:  rows=2048 cols=2048
   check:  rows=1 cols=1; rows=3 cols=7
   x:      in  float[rows*cols]
   out:    out float[rows*cols]
   launch: grid=min(cdiv(rows*cols,256),264) block=256
*/
__global__ void ramp_grid(const float* x, float* out, int rows, int cols)
{
    int total = rows * cols;
    for (int k = (blockIdx.x * blockDim.x) + threadIdx.x; k < total; k += (blockDim.x * gridDim.x)) {
        float v = x[k];
        out[k] = v * (float)(k % cols);
    }
}

// A histogram into shared memory: the keys through lanes, the global bins only as atomic targets.
/* @optiml
   sizes:  n=4194304
   check:  n=1; n=6; n=1000
   keys:   in    int[n] range(0,300)
   bins:   inout unsigned int[300] const(0)
   launch: grid=min(cdiv(n,256),264) block=256
*/
__global__ void bins_grid(const int* keys, unsigned int* bins, int n)
{
    __shared__ unsigned int local[32];
    for (int b = threadIdx.x; b < 32; b += blockDim.x) local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int key = keys[i];
        if (key < 32) atomicAdd(&local[key], 1u);
        else atomicAdd(&bins[key], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < 32; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}

// Not p[i]: a neighbour's element.
/* @optiml
   sizes:  n=1000000
   check:  n=2; n=5
   x:      in  float[n]
   d:      out float[n]
   launch: grid=min(cdiv(n,256),264) block=256
*/
__global__ void diff_grid(const float* x, float* d, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n - 1; i += blockDim.x * gridDim.x) d[i] = x[i + 1] - x[i];
}

// A block-stride loop (each block its own range), not a grid-stride one.
/* @optiml
   sizes:  n=1000000
   check:  n=1; n=700
   x:      in  float[n]
   y:      out float[n]
   launch: grid=1 block=256
*/
__global__ void block_stride(const float* x, float* y, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x) y[i] = 2.0f * x[i];
}

// Leaves the loop early.
/* @optiml
   sizes:  n=1000000
   check:  n=1; n=700
   x:      in  float[n]
   y:      out float[n]
   launch: grid=min(cdiv(n,256),264) block=256
*/
__global__ void stop_at_negative(const float* x, float* y, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        if (x[i] < 0.0f) break;
        y[i] = x[i];
    }
}

// Doubles: two per 16 bytes, not four.
/* @optiml
   sizes:  n=1000000
   check:  n=1; n=9
   x:      in  double[n]
   y:      out double[n]
   launch: grid=min(cdiv(n,256),264) block=256
*/
__global__ void copy_f64_grid(const double* x, double* y, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = x[i];
}

// A barrier in the body.
/* @optiml
   sizes:  n=262144
   check:  n=256; n=512
   x:      in  float[n]
   y:      out float[n]
   launch: grid=cdiv(n,256) block=256
*/
__global__ void synced_grid(const float* x, float* y, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        y[i] = x[i];
        __syncthreads();
    }
}

// The loop runs to n but y holds only half of it (read on half the indices): a 16-byte load could pass its end.
/* @optiml
   sizes:  n=1000000
   check:  n=2; n=10
   x:      in  float[n]
   y:      in  float[n/2]
   s:      out float[n]
   launch: grid=min(cdiv(n,256),264) block=256
*/
__global__ void half_second(const float* x, const float* y, float* s, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        s[i] = i < n / 2 ? x[i] + y[i] : x[i];
}

// The kernel moves a pointer: x + 1 is not 16-byte aligned.
/* @optiml
   sizes:  n=1000000
   check:  n=1; n=7
   x:      in  float[n+1]
   y:      out float[n]
   launch: grid=min(cdiv(n,256),264) block=256
*/
__global__ void shifted_copy(const float* x, float* y, int n)
{
    x += 1;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = x[i];
}

// The kernel changes the bound before the loop: the contract's sizes no longer say how far the loop reads.
/* @optiml
   sizes:  n=1000000
   check:  n=2; n=9
   x:      in  float[n]
   y:      out float[n]
   launch: grid=min(cdiv(n,256),264) block=256
*/
__global__ void first_half(const float* x, float* y, int n)
{
    n = n / 2;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = x[i];
}
