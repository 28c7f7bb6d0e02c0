// dst[c,a,b] = src[a,b,c]: permute a row-major A x B x C array to C x A x B (axes (2,0,1)).
#include <cuda/std/cstdint>

/* @optiml
   sizes:  A=256 B=256 C=256
   src:    in float[A*B*C]
   dst:    out float[A*B*C]
   launch: grid=cdiv(A*B*C,256) block=256
*/
__global__ void permute_abc_to_cab(const float* src, float* dst, int A, int B, int C)
{
    int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    int64_t total = (int64_t)A * B * C;
    if (idx < total) {
        // idx walks dst in order: idx = (c * A + a) * B + b
        int64_t b = idx % B;
        int64_t a = (idx / B) % A;
        int64_t c = idx / ((int64_t)A * B);
        dst[idx] = src[(a * B + b) * C + c];
    }
}
