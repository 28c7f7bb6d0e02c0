// Kernels the elementwise rules must leave alone (and the launch knobs too, where they hard-code the block),
// each with a valid contract so that the rules that do apply can be verified on them.

// Neighbour access: x[i + 1] is not x[i]; no 16-byte vectors. The grid-stride loop and block sizes still apply.
/* @optiml
   sizes:  n=3000000
   check:  n=1; n=2; n=1000
   x:      in  float[n]
   d:      out float[n-1]
   launch: grid=cdiv(n,256) block=256
*/
__global__ void forward_diff(const float* x, float* d, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n - 1) d[i] = x[i + 1] - x[i];
}

// Stride-2 reads: not p[i] either.
/* @optiml
   sizes:  n=2000000
   check:  n=1; n=3; n=999
   x:      in  float[2*n]
   y:      out float[n]
   launch: grid=cdiv(n,256) block=256
*/
__global__ void take_even(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = x[2 * i];
    }
}

// Doubles: no 4-element 16-byte vector.
/* @optiml
   sizes:  n=2000000
   check:  n=1; n=5
   x:      in    double[n]
   y:      inout double[n]
   a:      2.0
   launch: grid=cdiv(n,256) block=256
*/
__global__ void axpy_f64(const double* x, double* y, double a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] += a * x[i];
    }
}

// A data-dependent early exit: running the statements for several indices would skip the later ones.
/* @optiml
   sizes:  n=2000000
   check:  n=1; n=7
   x:      in    float[n]
   y:      inout float[n]
   launch: grid=cdiv(n,256) block=256
*/
__global__ void sqrt_nonnegative(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if (x[i] < 0.0f) return;
    y[i] = sqrtf(x[i]);
}

// Reads w only below m < n: loading w for every index below n would read past its end.
/* @optiml
   sizes:  n=2000000 m=1000000
   check:  n=10 m=3; n=1 m=1
   w:      in  float[m]
   y:      out float[n]
   launch: grid=cdiv(n,256) block=256
*/
__global__ void pad_copy(const float* w, float* y, int n, int m)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = i < m ? w[i] : 0.0f;
    }
}

// The launch covers only the first half: more elements per thread or a loop over all n would do more work.
/* @optiml
   sizes:  n=2000000
   check:  n=2; n=1001
   x:      in    float[n]
   y:      inout float[n]
   launch: grid=cdiv(n,512) block=256
   bytes:  6*n                          # half of x read, half of y read and written: the floor's bytes
*/
__global__ void first_half_double(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = 2.0f * x[i];
    }
}

// The block size is part of the algorithm: a shared array of 256, a tree over 128 threads, one output per block.
/* @optiml
   sizes:  n=1048576
   check:  n=1; n=300
   x:       in  float[n]
   partial: out float[cdiv(n,256)]
   launch:  grid=cdiv(n,256) block=256
   tol:     1e-4
*/
__global__ void block_sums(const float* x, float* partial, int n)
{
    __shared__ float buf[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    buf[threadIdx.x] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) {
        if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = buf[0];
}

// One pointer: nothing to alias.
/* @optiml
   sizes:  n=1000000
   check:  n=1
   x:      inout float[n]
   a:      3.0
   launch: grid=cdiv(n,256) block=256
*/
__global__ void scale_in_place(float* x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}
