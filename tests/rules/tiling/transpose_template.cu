// out = a + b^T for any element type: a and out are rows x cols, b is cols x rows, all row-major. A template kernel
// with __launch_bounds__ (which the rewrite's blocks must drop), one early return per index variable.

/* @optiml
   sizes:  rows=4096 cols=2048
   check:  rows=37 cols=1000; rows=1 cols=3; rows=1000 cols=1; rows=1 cols=1
   template: T=float
   a:      in  T[rows*cols]
   b:      in  T[cols*rows]
   out:    out T[rows*cols]
   launch: grid=(cdiv(cols,16),cdiv(rows,16)) block=(16,16)
*/
template <typename T>
__global__ void __launch_bounds__(256) add_transposed_t(const T* __restrict__ a, const T* __restrict__ b, T* out,
                                                        int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols) return;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= rows) return;
    out[row * cols + col] = a[row * cols + col] + b[col * rows + row];
}
