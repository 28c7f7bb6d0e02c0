// y[r][c] = sum over c' >= c of x[r][c']: a reverse (suffix) cumulative sum along each row, one thread per row.
/* @optiml
   sizes:  rows=32768 cols=2048         # 2^26 floats: 256 MiB in, 256 MiB out
   check:  rows=1 cols=1; rows=3 cols=7; rows=17 cols=129; rows=40 cols=2
   x:      in  float[rows*cols]
   y:      out float[rows*cols]
   launch: grid=cdiv(rows,128) block=128
   flops:  rows*cols
   tol:    1e-4
*/
__global__ void reverse_cumsum(const float* x, float* y, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float* xr = x + (size_t)r * cols;
    float* yr = y + (size_t)r * cols;
    float acc = 0.0f;
    for (int c = cols - 1; c >= 0; --c) {
        acc += xr[c];
        yr[c] = acc;
    }
}
