/* @optiml
   sizes:  nrows=4096 ncols=4096
   A:      in float[nrows*ncols]
   x:      in float[nrows]
   y:      out float[ncols]
   launch: grid=cdiv(ncols,256) block=256
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
