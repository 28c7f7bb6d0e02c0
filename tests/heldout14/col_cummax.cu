// y[r][c] = max over r' <= r of x[r'][c]: inclusive running maximum down each column of a rows x cols matrix (torch.cummax(x, dim=0).values), one thread per column.
/* @optiml
   sizes:  rows=8192 cols=4096          # 2^25 floats: 128 MiB in, 128 MiB out
   check:  rows=1 cols=1; rows=3 cols=5; rows=1000 cols=33; rows=7 cols=300; rows=129 cols=1
   x:      in  float[rows*cols]
   y:      out float[rows*cols]
   launch: grid=cdiv(cols,128) block=128
*/
__global__ void col_cummax(const float* x, float* y, long rows, long cols)
{
    long col = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (col >= cols) return;
    float m = x[col];
    y[col] = m;
    for (long r = 1; r < rows; r++) {
        m = fmaxf(m, x[r * cols + col]);
        y[r * cols + col] = m;
    }
}
