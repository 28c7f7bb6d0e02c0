// pos[r] = smallest c with x[r][c] > thresh, or cols if there is none: first index above a threshold in each row (a linear search that stops at the first hit), int output.
/* @optiml
   sizes:  rows=65536 cols=1024         # 2^26 floats: 256 MiB in (at thresh 0.9999 about 95% of rows have no hit and are read whole), 256 KiB out
   check:  rows=1 cols=1; rows=3 cols=7; rows=37 cols=1000; rows=1000 cols=1001; rows=4000 cols=257
   x:      in  float[rows*cols]
   pos:    out int[rows]
   thresh: 0.9999
   launch: grid=cdiv(rows,128) block=128
   flops:  rows*cols
*/
__global__ void first_above_rows(const float* x, int* pos, float thresh, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        const float* xr = x + (size_t)r * cols;
        int c;
        for (c = 0; c < cols; ++c) {
            if (xr[c] > thresh)
                break;
        }
        pos[r] = c;
    }
}
