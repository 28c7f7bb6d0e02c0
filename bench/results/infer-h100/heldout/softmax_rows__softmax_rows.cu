/* @optiml
   sizes:  n_rows=4096 n_cols=4096
   x:      in float[n_rows*n_cols]
   y:      inout float[n_rows*n_cols]
   launch: grid=cdiv(n_rows,256) block=256
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
