// y[j] = scale * sum over i of w[i] * x[i, j]; x is rows x cols row-major, w has rows weights. A uniform local
// before the guard, an element expression of two arrays, a loop body without braces.

/* @optiml
   sizes:  rows=16384 cols=2048
   check:  rows=1000 cols=37; rows=3 cols=1; rows=1 cols=1000; rows=1 cols=1; rows=129 cols=257
   w:      in  float[rows]
   x:      in  float[rows*cols]
   y:      out float[cols]
   launch: grid=cdiv(cols,256) block=256
   tol:    1e-4
*/
__global__ void weighted_column_sum(const float* w, const float* x, float* y, int rows, int cols)
{
    const float scale = 2.0f;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < cols) {
        float s = 0;
        for (int i = 0; i < rows; i++) s += w[i] * x[i * cols + j];
        y[j] = scale * s;
    }
}
