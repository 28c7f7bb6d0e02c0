// y = A^T x: y[c] = sum over r of A[r,c] * x[r]; A is nrows x ncols row-major, x has nrows floats, y has ncols floats.
/* @optiml
   sizes:  nrows=8192 ncols=8192        # 256 MiB matrix
   check:  nrows=37 ncols=1000; nrows=1 ncols=3; nrows=1000 ncols=1; nrows=129 ncols=257
   A:      in  float[nrows*ncols]
   x:      in  float[nrows]
   y:      out float[ncols]
   launch: grid=cdiv(ncols,256) block=256
   flops:  2*nrows*ncols
   tol:    1e-4
*/
__global__ void matvec_transposed(const float* A, const float* x, float* y, int nrows, int ncols)
{
    unsigned int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col < ncols) {
        float sum = 0;
        for (int r = 0; r < nrows; r++)
            sum += A[(size_t)r * ncols + col] * x[r];
        y[col] = sum;
    }
}
