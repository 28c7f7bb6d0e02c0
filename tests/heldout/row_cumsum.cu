// out[r,c] = sum over j <= c of x[r,j] (inclusive prefix sum along each row); x, out are rows x cols row-major.
/* @optiml
   sizes:  rows=65536 cols=1024         # 256 MiB in, 256 MiB out
   check:  rows=37 cols=1000; rows=1 cols=3; rows=1000 cols=1; rows=3 cols=4099
   x:      in  float[rows*cols]
   out:    out float[rows*cols]
   launch: grid=cdiv(rows,128) block=128
   flops:  rows*cols
   tol:    1e-4
*/
__global__ void row_cumsum(const float* x, float* out, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        float running = 0.0f;
        for (int c = 0; c < cols; c++) {
            running += x[r * cols + c];
            out[r * cols + c] = running;
        }
    }
}
