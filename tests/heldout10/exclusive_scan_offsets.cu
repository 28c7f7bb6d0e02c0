// offsets[r][c] = sum over c' < c of counts[r][c'] (exclusive prefix sum of int counts along each row, offsets[r][0] = 0).
/* @optiml
   sizes:  rows=32768 cols=2048         # 2^26 ints: 256 MiB in, 256 MiB out
   check:  rows=1 cols=1; rows=3 cols=7; rows=17 cols=129; rows=64 cols=2
   counts: in  int[rows*cols] range(0,16)
   offsets: out int[rows*cols]
   launch: grid=cdiv(rows,256) block=256
*/
__global__ void exclusive_offsets(const int* __restrict__ counts, int* __restrict__ offsets, int rows, int cols)
{
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        int running = 0;
        for (int c = 0; c < cols; c++) {
            int v = counts[row * cols + c];
            offsets[row * cols + c] = running;
            running += v;
        }
    }
}
