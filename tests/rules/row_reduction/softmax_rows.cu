// y[r,:] = softmax(x[r,:]): max with max(), a sum written `s = s + ...`, then a normalizing store per element.
/* @optiml
   sizes:  rows=32768 cols=1000
   check:  rows=37 cols=1000; rows=1 cols=3; rows=513 cols=17; rows=3 cols=2049
   x:      in  float[rows*cols] uniform(-4,4)
   y:      out float[rows*cols]
   launch: grid=cdiv(rows,64) block=64
   tol:    1e-4
*/
__global__ void softmax_rows(const float* x, float* y, int rows, int cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        float m = -3.4e38f;
        for (int k = 0; k < cols; k += 1) {
            m = max(m, x[row * cols + k]);
        }
        float s = 0.0f;
        for (int k = 0; k < cols; k += 1) {
            s = s + expf(x[row * cols + k] - m);
        }
        float inv = 1.0f / s;
        for (int k = 0; k < cols; k += 1) {
            y[k + row * cols] = expf(x[row * cols + k] - m) * inv;
        }
    }
}
