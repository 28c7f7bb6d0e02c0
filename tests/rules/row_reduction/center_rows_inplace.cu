// x[r,:] -= mean(x[r,:]) in place: the array read by the sum is the one the second loop stores to, element by
// element, in loops that start at the same column.
/* @optiml
   sizes:  rows=32768 cols=512
   check:  rows=37 cols=1000; rows=1 cols=3; rows=513 cols=17
   x:      inout float[rows*cols]
   launch: grid=cdiv(rows,256) block=256
   tol:    1e-4
*/
__global__ void center_rows_inplace(float* x, int rows, int cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        float sum = 0.0f;
        for (int c = 0; c < cols; c++)
            sum += x[row * cols + c];
        const float mean = sum / cols;
        for (int c = 0; c < cols; c++)
            x[row * cols + c] -= mean;
    }
}
