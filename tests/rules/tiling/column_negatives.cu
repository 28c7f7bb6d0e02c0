// Kernels that column_reduce must leave alone.

// The loop stops at the first negative element: splitting the rows among threads changes the result.
/* @optiml
   sizes:  rows=512 cols=256
   x:      in  float[rows*cols]
   out:    out float[cols]
   launch: grid=cdiv(cols,128) block=128
*/
__global__ void column_prefix_sum(const float* x, float* out, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col < cols) {
        float sum = 0.0f;
        for (int r = 0; r < rows; r++) {
            if (x[r * cols + col] < 0.0f) break;
            sum += x[r * cols + col];
        }
        out[col] = sum;
    }
}

// The accumulator is not a sum (a running maximum reads it inside the loop).
/* @optiml
   sizes:  rows=512 cols=256
   x:      in  float[rows*cols]
   out:    out float[cols]
   launch: grid=cdiv(cols,128) block=128
*/
__global__ void column_max(const float* x, float* out, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col < cols) {
        float m = 0.0f;
        for (int r = 0; r < rows; r++) {
            m = fmaxf(m, x[r * cols + col]);
        }
        out[col] = m;
    }
}

// A decaying sum: the accumulator is scaled every step, so the order of the rows matters.
/* @optiml
   sizes:  rows=512 cols=256
   x:      in  float[rows*cols]
   out:    out float[cols]
   launch: grid=cdiv(cols,128) block=128
*/
__global__ void column_decayed_sum(const float* x, float* out, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col < cols) {
        float sum = 0.0f;
        for (int r = 0; r < rows; r++) {
            sum = 0.5f * sum + x[r * cols + col];
        }
        out[col] = sum;
    }
}
