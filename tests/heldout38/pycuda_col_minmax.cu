// mins[c] = min_r x[r, c], maxs[c] = max_r x[r, c]: `torch.aminmax(x, dim=0)`, the per-channel range a quantization observer records for channels-last activations (`PerChannelMinMaxObserver(ch_axis=-1)` on a `[65536, 1024]` token x hidden activation; its `min_val`, `max_val`); written as a PyCUDA `SourceModule` source (PyCUDA wraps it in `extern "C"` itself): `float *` outputs first, `const float *x`, the sizes as `unsigned int rows, cols` and `unsigned int` index and loop counter, one thread a column, the two accumulators seeded with the first row on one line and the loop from row 1, `fminf` / `fmaxf`, an early `return`; activations `normal(0,1)`.

/* @optiml
   sizes:  rows=65536 cols=1024   # x 256 MiB in, mins and maxs 4 KiB out each; 134 MFLOP (two compares an element)
   check:  rows=1 cols=1; rows=2 cols=3; rows=7 cols=255; rows=100 cols=257; rows=1000 cols=33; rows=3 cols=1000; rows=4097 cols=1
   mins:   out float[cols]
   maxs:   out float[cols]
   x:      in  float[rows*cols] normal(0,1)
   launch: grid=cdiv(cols,256) block=256
   flops:  2*rows*cols
   tol:    1e-6
*/
__global__ void col_minmax(float *mins, float *maxs, const float *x, unsigned int rows, unsigned int cols)
{
    const unsigned int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols)
        return;

    float lo = x[col], hi = x[col];
    for (unsigned int r = 1; r < rows; r++) {
        const float v = x[r * cols + col];
        lo = fminf(lo, v);
        hi = fmaxf(hi, v);
    }
    mins[col] = lo;
    maxs[col] = hi;
}
