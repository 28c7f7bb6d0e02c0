// out[r] = max over c of x[r][c] - min over c of x[r][c]: the range (peak-to-peak, torch.amax - torch.amin) of each row of a rows x cols matrix, one thread per row.
/* @optiml
   sizes:  rows=65536 cols=1024         # 2^26 floats: 256 MiB in, 256 KiB out
   check:  rows=1 cols=1; rows=3 cols=7; rows=37 cols=1000; rows=129 cols=2
   x:      in  float[rows*cols]
   out:    out float[rows]
   launch: grid=cdiv(rows,128) block=128
   flops:  2*rows*cols
*/
__global__ void row_range(const float* x, float* out, int rows, int cols)
{
    int r = blockDim.x * blockIdx.x + threadIdx.x;
    if (r < rows) {
        const float* row = x + (size_t)r * cols;
        float lo = row[0], hi = row[0];
        for (int c = 1; c < cols; ++c) {
            lo = fminf(lo, row[c]);
            hi = fmaxf(hi, row[c]);
        }
        out[r] = hi - lo;
    }
}
