// y[r][c] = max over c' <= c of x[r][c']: a running maximum along each row, one thread per row.
/* @optiml
   sizes:  rows=16384 cols=4096
   check:  rows=3 cols=7; rows=1 cols=1; rows=40 cols=129
   x:      in  float[rows*cols]
   y:      out float[rows*cols]
   launch: grid=cdiv(rows,128) block=128
*/
__global__ void row_cummax(const float* x, float* y, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        float running = -INFINITY;
        for (int c = 0; c < cols; ++c) {
            running = fmaxf(running, x[r * cols + c]);
            y[r * cols + c] = running;
        }
    }
}
