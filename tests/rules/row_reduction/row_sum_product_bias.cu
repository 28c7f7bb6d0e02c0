// sums[r] = bias[r] + sum of row r, prods[r] = product of row r: a sum that enters its loop holding a per-row
// value (only one thread of the row may keep it) and a product (`*=`).
/* @optiml
   sizes:  rows=16384 cols=1024
   check:  rows=37 cols=1000; rows=1 cols=3; rows=100 cols=1; rows=33 cols=65
   x:      in  float[rows*cols] uniform(0.9,1.1)
   bias:   in  float[rows]
   sums:   out float[rows]
   prods:  out float[rows]
   launch: grid=cdiv(rows,256) block=256
   tol:    1e-4
*/
__global__ void row_sum_product_bias(const float* x, const float* bias, float* sums, float* prods, int rows, int cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        float s = bias[row];
        float p = 1.0f;
        for (int c = 0; c < cols; c++) {
            const float v = x[row * cols + c];
            s += v;
            p *= v;
        }
        sums[row] = s;
        prods[row] = p;
    }
}
