// Kernels that transpose_tile must leave alone.

// The transposed read's stride is a leading dimension, not the row bound: the tile's bounds would not cover it.
/* @optiml
   sizes:  rows=512 cols=256
   a:      in  float[rows*cols]
   b:      in  float[cols*(rows+3)]
   out:    out float[rows*cols]
   ld:     rows+3
   launch: grid=(cdiv(cols,16),cdiv(rows,16)) block=(16,16)
*/
__global__ void add_transposed_ld(const float* a, const float* b, float* out, int ld, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols) {
        out[row * cols + col] = a[row * cols + col] + b[col * ld + row];
    }
}

// The guarded code returns early: in the rewrite, one thread handles several rows, and a return would skip them.
/* @optiml
   sizes:  rows=512 cols=256
   a:      in  float[rows*cols]
   b:      in  float[cols*rows]
   out:    out float[rows*cols]
   launch: grid=(cdiv(cols,16),cdiv(rows,16)) block=(16,16)
*/
__global__ void add_transposed_positive(const float* a, const float* b, float* out, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols) {
        out[row * cols + col] = 0.0f;
        if (a[row * cols + col] < 0.0f) return;
        out[row * cols + col] = a[row * cols + col] + b[col * rows + row];
    }
}

// The "transposed" array is updated in place: a tile would hold stale values.
/* @optiml
   sizes:  n=512
   a:      inout float[n*n]
   launch: grid=(cdiv(n,16),cdiv(n,16)) block=(16,16)
*/
__global__ void symmetrize_in_place(float* a, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < n && col < n) {
        a[row * n + col] = 0.5f * (a[row * n + col] + a[col * n + row]);
    }
}

// Reads and writes in the same orientation: nothing is transposed.
/* @optiml
   sizes:  rows=512 cols=256
   a:      in  float[rows*cols]
   out:    out float[rows*cols]
   launch: grid=(cdiv(cols,16),cdiv(rows,16)) block=(16,16)
*/
__global__ void copy_2d(const float* a, float* out, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols) {
        out[row * cols + col] = a[row * cols + col];
    }
}
