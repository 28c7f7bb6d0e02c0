// y[r][c] = x[r][0] * x[r][1] * ... * x[r][c]: inclusive cumulative product along each row of a rows x cols matrix of doubles, one thread per row.
/* @optiml
   sizes:  rows=16384 cols=1024         # 2^24 doubles: 128 MiB in, 128 MiB out
   check:  rows=1 cols=1; rows=3 cols=7; rows=17 cols=129; rows=64 cols=2
   x:      in  double[rows*cols]
   y:      out double[rows*cols]
   launch: grid=cdiv(rows,64) block=64
   flops:  rows*cols
*/
__global__ void cumprod_rows(const double* x, double* y, int rows, int cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    const double* in_row = x + (size_t)row * cols;
    double* out_row = y + (size_t)row * cols;
    double prod = 1.0;
    for (int c = 0; c < cols; ++c)
        out_row[c] = prod *= in_row[c];
}
