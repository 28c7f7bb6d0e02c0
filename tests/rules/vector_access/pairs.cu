// Adjacent pairs a thread reads: where pair_loads applies (the first three) and where it must not (the rest), each
// with a contract so that the rewrites can be verified on the GPU.

// Interleaved complex numbers: re at 2i, im at 2i + 1 (always even: every pair aligned).
/* @optiml
   sizes:  n=4194304
   check:  n=1; n=3; n=1000
   z:      in  float[2*n]
   mag:    out float[n]
   launch: grid=cdiv(n,256) block=256
*/
__global__ void complex_magnitude(const float* z, float* mag, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float re = z[2 * i];
        float im = z[2 * i + 1];
        mag[i] = sqrtf(re * re + im * im);
    }
}

// Pairs at an odd stride: every other pair misaligned (the original loads there), and the last pair's second
// element past the end for the last thread (the original loads never reach it: guarded).
/* @optiml
   sizes:  n=2000001
   check:  n=1; n=2; n=7
   x:      in  int[n]
   s:      out int[n]
   launch: grid=cdiv(n,128) block=128
*/
__global__ void pair_sums(const int* x, int* s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int k = 3 * i;
    int total = 0;
    if (k < n) total += x[k];
    if (k + 1 < n) total += x[k + 1];
    s[i] = total;
}

// Both elements of a 2-D point, read in a loop body (the block that holds both reads is the loop's).
/* @optiml
   sizes:  n=1048576
   check:  n=1; n=5
   xy:     in  float[2*n]
   out:    inout float[1] const(0)
   launch: grid=cdiv(n,256) block=256
   tol:    1e-3
*/
__global__ void norm_sum(const float* xy, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int j = i; j < n; j += gridDim.x * blockDim.x) {
        float x = xy[2 * j];
        float y = xy[2 * j + 1];
        acc += sqrtf(x * x + y * y);
    }
    atomicAdd(out, acc);
}

// The array is written too: a pair loaded early could miss the store.
/* @optiml
   sizes:  n=1000000
   check:  n=2; n=9
   x:      inout float[n+1]
   launch: grid=cdiv(n,256) block=256
*/
__global__ void shift_down(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] + x[i + 1];
}

// The index changes between the reads.
/* @optiml
   sizes:  n=1000000
   check:  n=1; n=9
   x:      in  float[2*n+2]
   y:      out float[n]
   launch: grid=cdiv(n,256) block=256
*/
__global__ void moved_index(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int k = 2 * i;
        float a = x[k];
        k = k + 1;
        y[i] = a + x[k + 1];
    }
}

// Doubles: a pair is 16 bytes, not this rule's.
/* @optiml
   sizes:  n=1000000
   check:  n=1; n=9
   z:      in  double[2*n]
   mag:    out double[n]
   launch: grid=cdiv(n,256) block=256
*/
__global__ void complex_magnitude_f64(const double* z, double* mag, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) mag[i] = sqrt(z[2 * i] * z[2 * i] + z[2 * i + 1] * z[2 * i + 1]);
}

// A length the kernel cannot compute from its parameters (the contract's cdiv).
/* @optiml
   sizes:  n=1000000
   check:  n=1; n=9
   z:      in  float[cdiv(n,2)*4]
   mag:    out float[n]
   launch: grid=cdiv(n,256) block=256
*/
__global__ void padded_pairs(const float* z, float* mag, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) mag[i] = z[2 * i] - z[2 * i + 1];
}
