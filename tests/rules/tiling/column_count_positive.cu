// counts[c] = number of rows r with x[r, c] > 0; x is rows x cols row-major. An integer accumulator updated under
// a condition, a const index variable, ++row, launch bounds that the rewrite's larger blocks must drop.

/* @optiml
   sizes:  rows=16384 cols=1024
   check:  rows=1000 cols=37; rows=3 cols=1; rows=1 cols=1000; rows=1 cols=1; rows=129 cols=257
   x:      in  float[rows*cols]
   counts: out int32[cols]
   launch: grid=cdiv(cols,128) block=128
*/
__global__ void __launch_bounds__(128) count_positive_per_column(const float* x, int* counts, int rows, int cols)
{
    const int column = blockIdx.x * blockDim.x + threadIdx.x;
    if (column < cols) {
        int n = 0;
        for (int row = 0; row < rows; ++row) {
            if (x[row * cols + column] > 0.0f) {
                n += 1;
            }
        }
        counts[column] = n;
    }
}
