// out[r][c] = A[r][c] + v[c]: add a row vector v (length cols) to every row of a rows x cols matrix (NumPy-style broadcasting).
/* @optiml
   sizes:  rows=8192 cols=4096          # 2^25 floats: 128 MiB in, 16 KiB of v, 128 MiB out
   check:  rows=1 cols=1; rows=3 cols=5; rows=17 cols=1000; rows=300 cols=2
   A:      in  float[rows*cols]
   v:      in  float[cols]
   out:    out float[rows*cols]
   launch: grid=(cdiv(cols,256),rows) block=256
   flops:  rows*cols
*/
__global__ void add_row_broadcast(const float* A, const float* v, float* out, unsigned int rows, unsigned int cols)
{
    const unsigned int col = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned int row = blockIdx.y;
    if (row < rows && col < cols) {
        size_t off = (size_t)row * cols + col;
        out[off] = A[off] + __ldg(&v[col]);
    }
}
