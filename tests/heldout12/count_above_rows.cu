// cnt[r] = number of c with x[r][c] > thresh: per-row count of the elements above a threshold, int output, one thread per row.
/* @optiml
   sizes:  rows=65536 cols=1024         # 2^26 floats: 256 MiB in, 256 KiB out
   check:  rows=1 cols=1; rows=3 cols=7; rows=37 cols=1000; rows=129 cols=2
   x:      in  float[rows*cols]
   cnt:    out int[rows]
   thresh: 0.25
   launch: grid=cdiv(rows,128) block=128
   flops:  rows*cols
*/
__global__ void count_above_rows(const float* x, int* cnt, float thresh, int rows, int cols)
{
    const int tid = threadIdx.x;
    const int bid = blockIdx.x;
    const int row = bid * blockDim.x + tid;
    if (row >= rows) return;
    int count = 0;
    for (int c = 0; c < cols; c++) {
        float v = x[row * cols + c];
        if (v <= thresh)
            continue;
        ++count;
    }
    cnt[row] = count;
}
