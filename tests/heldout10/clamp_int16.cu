// y[i] = x[i] < lo ? lo : (x[i] > hi ? hi : x[i]) over n int16 values, written as a grid-stride loop.
#include <cuda/std/cstdint>

/* @optiml
   sizes:  n=134217728                  # 2^27 int16: 256 MiB in, 256 MiB out
   check:  n=1; n=255; n=1000003
   x:      in  int16[n] range(-4000,4000)
   y:      out int16[n]
   lo:     -1000
   hi:     1500
   launch: grid=min(cdiv(n,256),4096) block=256
*/
__global__ void clamp_int16(const int16_t* __restrict__ x, int16_t* __restrict__ y, int16_t lo, int16_t hi, long long n)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x) {
        int16_t v = x[i];
        y[i] = v < lo ? lo : (v > hi ? hi : v);
    }
}
