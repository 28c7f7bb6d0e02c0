// mean[c] = (1/rows) * sum over r of x[r][c]: the mean of each column of a rows x cols matrix, one thread per column walking a pointer down the column.
/* @optiml
   sizes:  rows=16384 cols=4096         # 2^26 floats: 256 MiB in, 16 KiB out
   check:  rows=1 cols=1; rows=3 cols=5; rows=1000 cols=33; rows=7 cols=300
   x:      in  float[rows*cols]
   mean:   out float[cols]
   launch: grid=cdiv(cols,256) block=256
   flops:  rows*cols
   tol:    1e-4
*/
__global__ void col_mean(const float* x, float* mean, int rows, int cols)
{
    int col = blockDim.x * blockIdx.x + threadIdx.x;
    if (col >= cols) return;
    const float* p = x + col;
    float s = 0.0f;
    for (int r = 0; r < rows; ++r) {
        s += *p;
        p += cols;
    }
    mean[col] = s / static_cast<float>(rows);
}
