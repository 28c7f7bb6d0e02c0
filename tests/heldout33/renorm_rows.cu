// y[r][:] = x[r][:] * (||x[r]||_2 > maxnorm ? maxnorm / (||x[r]||_2 + 1e-7) : 1): `torch.renorm(x, p=2, dim=0, maxnorm=6.5)` (the max-norm constraint on the rows of an embedding table or weight matrix: each row whose L2 norm exceeds maxnorm is scaled back to it, the others kept) on a [262144, 128] fp32 table, maxnorm near the typical row norm so that about half the rows are scaled; one thread per row on a 1-D launch, early return, `int64_t` row offsets (<cstdint>), the sum of squares with `fmaf` over a pointer walked to the row's end, an early `return` in the middle of the kernel after copying a row within the bound, the scale computed with a double literal written without `f`, the scaled row written through post-incremented pointers, maxnorm a float argument with its own contract line.
#include <cstdint>

/* @optiml
   sizes:   rows=262144 D=128   # x 128 MiB in, y 128 MiB out; 0.1 GFLOP
   check:   rows=1 D=1; rows=3 D=7; rows=129 D=128; rows=300 D=127; rows=17 D=200; rows=64 D=33
   x:       in  float[rows*D]
   y:       out float[rows*D]
   maxnorm: 6.5
   launch:  grid=cdiv(rows,128) block=128
   flops:   3*rows*D
*/
__global__ void renorm_rows(const float* x, float* y, float maxnorm, int rows, int D)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    const float* src = x + (int64_t)r * D;
    float* dst = y + (int64_t)r * D;

    float ss = 0.0f;
    for (const float* p = src; p != src + D; ++p)
        ss = fmaf(*p, *p, ss);
    const float norm = sqrtf(ss);

    if (!(norm > maxnorm)) {
        for (int k = 0; k < D; ++k)
            dst[k] = src[k];
        return;
    }

    const float scale = maxnorm / (norm + 1e-7);
    for (int k = 0; k < D; ++k)
        *dst++ = *src++ * scale;
}
