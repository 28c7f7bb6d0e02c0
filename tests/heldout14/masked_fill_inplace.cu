// x[i] = mask[i] ? value : x[i]: in-place masked fill of n floats where a byte mask is set (x.masked_fill_(mask, value)).
#include <cstdint>

/* @optiml
   sizes:  n=33554432                   # 2^25: 128 MiB of floats read and 128 MiB written (inout), 32 MiB of mask
   check:  n=1; n=255; n=1000003
   x:      inout float[n]
   mask:   in    uint8_t[n] range(0,2)  # half the elements set
   value:  -10000.0
   launch: grid=cdiv(n,256) block=256
*/
__global__ void masked_fill_(float* x, const uint8_t* mask, float value, int n)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i >= n)
        return;
    if (mask[i] != 0)
        x[i] = value;
}
