/* @optiml
   sizes:  rows=4096 cols=4096
   x:      in float[rows*cols]
   out:    out float[rows*cols]
   launch: grid=cdiv(rows,256) block=256
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
