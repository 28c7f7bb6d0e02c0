// Planted defect: accumulates into the output without clearing it first (reads memory it never wrote).
// expect: uninitialized_read
/* @optiml
   sizes:  rows=65536 cols=256
   check:  rows=37 cols=100
   x:      in  float[rows*cols]
   y:      out float[rows]
   launch: grid=cdiv(rows,128) block=128
   tol:    1e-4
*/
__global__ void row_sum(const float* x, float* y, int rows, int cols) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        float s = 0.0f;
        for (int c = 0; c < cols; ++c) s += x[r * cols + c];
        y[r] = s;
    }
}

/* @optiml
   sizes:  rows=65536 cols=256
   check:  rows=37 cols=100
   x:      in  float[rows*cols]
   y:      out float[rows]
   launch: grid=cdiv(rows,128) block=128
   tol:    1e-4
   reference: row_sum
*/
__global__ void row_sum_no_init(const float* x, float* y, int rows, int cols) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        for (int c = 0; c < cols; ++c) y[r] += x[r * cols + c];
    }
}
