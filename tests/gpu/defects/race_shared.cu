// Planted defect: block-per-row sum whose tree reduction lacks the barrier between steps (a shared-memory race).
// expect: race wrong | racecheck
/* @optiml
   sizes:  rows=4096 cols=1024
   check:  rows=37 cols=1000
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
   sizes:  rows=4096 cols=1024
   check:  rows=37 cols=1000
   x:      in  float[rows*cols]
   y:      out float[rows]
   launch: grid=rows block=256
   tol:    1e-4
   reference: row_sum
*/
__global__ void row_sum_racy(const float* x, float* y, int rows, int cols) {
    __shared__ float partial[256];
    int r = blockIdx.x;
    float s = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) s += x[r * cols + c];
    partial[threadIdx.x] = s;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
        // missing __syncthreads(): the next step reads partial sums other warps may not have written yet
    }
    if (threadIdx.x == 0) y[r] = partial[0];
}
