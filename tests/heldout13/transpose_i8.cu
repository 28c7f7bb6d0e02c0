// out[c][r] = in[r][c]: transpose of a rows x cols int8 matrix (rows != cols) into a cols x rows one, one thread per element.
/* @optiml
   sizes:  rows=16384 cols=8192         # 2^27 int8: 128 MiB in, 128 MiB out
   check:  rows=1 cols=1; rows=3 cols=5; rows=33 cols=17; rows=1 cols=1000; rows=100 cols=1
   in:     in  int8[rows*cols] range(-128,128)
   out:    out int8[cols*rows]
   launch: grid=(cdiv(cols,32),cdiv(rows,32)) block=(32,32)
*/
__global__ void transpose_i8(const signed char* in, signed char* out, int rows, int cols)
{
    const int x = blockIdx.x * 32 + threadIdx.x;
    const int y = blockIdx.y * 32 + threadIdx.y;
    if (x < cols && y < rows)
        out[(size_t)x * rows + y] = in[(size_t)y * cols + x];
}
