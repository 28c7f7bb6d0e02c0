// y[r,c] = exp(x[r,c] - max_c x[r,:]) / sum_c exp(x[r,c] - max_c x[r,:]); x, y are n_rows x n_cols row-major.
/* @optiml
   sizes:  n_rows=65536 n_cols=1024     # 256 MiB in, 256 MiB out
   check:  n_rows=37 n_cols=1000; n_rows=1 n_cols=3; n_rows=1000 n_cols=1; n_rows=3 n_cols=2049
   x:      in  float[n_rows*n_cols]
   y:      out float[n_rows*n_cols]
   launch: grid=cdiv(n_rows,128) block=128
   flops:  5*n_rows*n_cols
   tol:    1e-4
*/
__global__ void softmax_rows(const float* __restrict__ x, float* __restrict__ y, int n_rows, int n_cols)
{
    int r = threadIdx.x + blockIdx.x * blockDim.x;
    if (r < n_rows) {
        const float* in_row = x + (size_t)r * n_cols;
        float* out_row = y + (size_t)r * n_cols;

        float mx = __int_as_float(0xff800000);   // -inf
        for (int c = 0; c < n_cols; c++)
            mx = fmaxf(mx, in_row[c]);

        float denom = 0.0f;
        for (int c = 0; c < n_cols; c++) {
            float e = __expf(in_row[c] - mx);
            out_row[c] = e;
            denom += e;
        }

        const float inv = 1.0f / denom;
        for (int c = 0; c < n_cols; c++)
            out_row[c] *= inv;
    }
}
