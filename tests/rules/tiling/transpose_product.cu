// out = p^T .* q^T (elementwise) scaled: out is n_rows x n_cols, p and q are n_cols x n_rows, all row-major. Two
// transposed arrays, uniform locals (one of them the column bound), bounds written `n_rows > r`, parenthesized
// indices.

/* @optiml
   sizes:  n_rows=3000 n_cols=2500
   check:  n_rows=37 n_cols=1000; n_rows=1 n_cols=3; n_rows=1000 n_cols=1; n_rows=1 n_cols=1; n_rows=64 n_cols=32
   p:      in  float[n_cols*n_rows]
   q:      in  float[n_cols*n_rows]
   out:    out float[n_rows*n_cols]
   launch: grid=(cdiv(n_cols,32),cdiv(n_rows,4)) block=(32,4)
*/
__global__ void transposed_product(const float* p, const float* q, float* out, int n_rows, int n_cols)
{
    const float half = 0.5f;
    const int width = n_cols;
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (n_rows > r && c < width) {
        out[r * width + c] = half * p[c * n_rows + r] * q[(c) * n_rows + (r)];
    }
}
