// y[r][c] = x[r][c] / max(sum over c' of |x[r][c']|, eps): each row of a rows x cols matrix scaled to unit L1 norm (F.normalize(x, p=1, dim=1)).
/* @optiml
   sizes:  rows=65536 cols=1024         # 2^26 floats: 256 MiB in, 256 MiB out
   check:  rows=1 cols=1; rows=3 cols=7; rows=17 cols=129; rows=100 cols=2
   x:      in  float[rows*cols]
   y:      out float[rows*cols]
   eps:    1e-12
   launch: grid=cdiv(rows,128) block=128
   flops:  3*rows*cols
   tol:    1e-4
*/
__global__ void l1_normalize_rows(const float* x, float* y, unsigned int rows, unsigned int cols, float eps)
{
    unsigned int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        const float* xr = x + (size_t)r * cols;
        float* yr = y + (size_t)r * cols;
        float s = 0.0f;
        for (unsigned int c = 0; c < cols; c++)
            s += fabsf(xr[c]);
        float inv = 1.0f / fmaxf(s, eps);
        for (unsigned int c = 0; c < cols; c++)
            yr[c] = xr[c] * inv;
    }
}
