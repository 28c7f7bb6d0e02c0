// y[r][c] = sum over r' <= r of x[r'][c]: inclusive prefix sum down each column of a rows x cols matrix (torch.cumsum(x, dim=0)), one thread per column.
/* @optiml
   sizes:  rows=8192 cols=4096          # 2^25 floats: 128 MiB in, 128 MiB out
   check:  rows=1 cols=1; rows=3 cols=5; rows=1000 cols=33; rows=7 cols=300; rows=129 cols=1
   x:      in  float[rows*cols]
   y:      out float[rows*cols]
   launch: grid=cdiv(cols,256) block=256
   flops:  rows*cols
   tol:    1e-4
*/
__global__ void col_cumsum(const float* x, float* y, unsigned int rows, unsigned int cols)
{
    unsigned int c = threadIdx.x + blockIdx.x * blockDim.x;
    if (c >= cols)
        return;
    float running = 0.0f;
    for (unsigned int r = 0; r < rows; r++) {
        size_t k = (size_t)r * cols + c;
        running += x[k];
        y[k] = running;
    }
}
