// norms[r] = sqrt(sum over j of x[r,j]^2): an early return, a row pointer, `acc = acc + ...`, other names.
/* @optiml
   sizes:  n_rows=20000 n_cols=700
   check:  n_rows=37 n_cols=1000; n_rows=1 n_cols=3; n_rows=513 n_cols=17; n_rows=5 n_cols=1
   x:      in  float[n_rows*n_cols]
   norms:  out float[n_rows]
   launch: grid=cdiv(n_rows,128) block=128
   tol:    1e-4
*/
__global__ void row_l2norm(const float* __restrict__ x, float* __restrict__ norms, int n_rows, int n_cols)
{
    const int r = threadIdx.x + blockDim.x * blockIdx.x;
    if (r >= n_rows)
        return;
    const float* xr = x + (size_t)r * n_cols;
    float acc = 0.f;
    for (int j = 0; j < n_cols; ++j)
        acc = acc + xr[j] * xr[j];
    norms[r] = sqrtf(acc);
}
