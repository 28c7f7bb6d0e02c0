// y[r][j] = x[r][j] * sigmoid(x[r][D + j]): `F.glu(x, dim=-1)` (the gated linear unit after a Conformer convolution module's first pointwise convolution, or of a GLU feed-forward: the first half of each row times the sigmoid of the second) on [16384, 4096] fp32 -> [16384, 2048], x `uniform(-4,4)`; one thread per output on a 2-D grid of (8, 32) blocks laid out the unusual way round (rows on x, columns on y), `unsigned int` sizes and indices, early return, a function-like `IDX(r, c, ld)` macro, the row width a `const` computed in the kernel, and a `static __device__ inline` sigmoid with a return for each sign (exp of a non-positive argument on both sides).

#define IDX(r, c, ld) ((size_t)(r) * (ld) + (c))

static __device__ inline float sigmoid_(float v)
{
    if (v >= 0.0f) {
        const float e = expf(-v);
        return 1.0f / (1.0f + e);
    }
    const float e = expf(v);
    return e / (1.0f + e);
}

/* @optiml
   sizes:   rows=16384 D=2048   # x 256 MiB in, y 128 MiB out; 0.17 GFLOP
   check:   rows=1 D=1; rows=3 D=7; rows=9 D=33; rows=17 D=64; rows=2 D=300; rows=40 D=5
   x:       in  float[rows*2*D] uniform(-4,4)
   y:       out float[rows*D]
   launch:  grid=(cdiv(rows,8),cdiv(D,32)) block=(8,32)
   flops:   5*rows*D
*/
__global__ void glu_lastdim(const float* x, float* y, unsigned int rows, unsigned int D)
{
    unsigned int r = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (r >= rows || j >= D)
        return;
    const unsigned int width = 2 * D;
    y[IDX(r, j, D)] = x[IDX(r, j, width)] * sigmoid_(x[IDX(r, D + j, width)]);
}
