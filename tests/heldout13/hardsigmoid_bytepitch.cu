// out[r][c] = min(max(x[r][c] / 6 + 1/2, 0), 1): hardsigmoid of a rows x cols matrix stored with a row pitch in BYTES (cudaMallocPitch style, pitch >= 4*cols), written to a dense rows x cols output.
/* @optiml
   sizes:  rows=8192 cols=4000 pitch=16384   # x counted as rows*pitch/4 floats = 128 MiB (2.3% padding never read), 125 MiB out
   check:  rows=1 cols=1 pitch=4; rows=3 cols=5 pitch=32; rows=17 cols=1000 pitch=4096; rows=300 cols=2 pitch=12
   x:      in  float[rows*(pitch/4)] uniform(-4,4)   # both saturations reached (|x| > 3)
   out:    out float[rows*cols]
   launch: grid=(cdiv(cols,32),cdiv(rows,8)) block=(32,8)
   flops:  4*rows*cols
*/
__global__ void hardsigmoid_bytepitch(const float* x, float* out, int rows, int cols, size_t pitch)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r >= rows || c >= cols)
        return;
    const float* xrow = (const float*)((const char*)x + r * pitch);
    float v = xrow[c] / 6.0f + 0.5f;
    out[(size_t)r * cols + c] = fminf(fmaxf(v, 0.0f), 1.0f);
}
