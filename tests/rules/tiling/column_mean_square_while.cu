// result[c] = mean over rows of data[r, c]^2; data is n_rows x n_cols row-major. Early-return guard, a while loop,
// the element squared through a temporary, `total = total + ...`, an epilogue that divides.

/* @optiml
   sizes:  n_rows=16384 n_cols=1024
   check:  n_rows=1000 n_cols=37; n_rows=3 n_cols=1; n_rows=1 n_cols=1000; n_rows=1 n_cols=1; n_rows=129 n_cols=257
   data:   in  float[n_rows*n_cols]
   result: out float[n_cols]
   launch: grid=cdiv(n_cols,256) block=256
   tol:    1e-4
*/
__global__ void column_mean_square(const float* data, float* result, int n_rows, int n_cols)
{
    int c = threadIdx.x + blockDim.x * blockIdx.x;
    if (c >= n_cols) return;
    float total = 0.0f;
    int r = 0;
    while (r < n_rows) {
        float v = data[c + r * n_cols];
        total = total + v * v;
        r += 1;
    }
    result[c] = total / n_rows;
}
