// y[r][j] = (x[r][j] - min_k x[r][k]) / (max_k x[r][k] - min_k x[r][k]): per-row min-max scaling to [0, 1] ((x - x.amin(1, keepdim=True)) / (x.amax(1, keepdim=True) - x.amin(1, keepdim=True)), sklearn's MinMaxScaler along rows) on 32 rows of half a million values; one thread per row, one pass for both the minimum and the maximum with if / else-if, then a write pass multiplying by the reciprocal range.
/* @optiml
   sizes:   rows=32 D=524288            # x 64 MiB in, y 64 MiB out
   check:   rows=1 D=2; rows=2 D=7; rows=3 D=1000; rows=32 D=129; rows=1 D=40000; rows=7 D=4099
   x:       in  float[rows*D] uniform(-4,4)
   y:       out float[rows*D]
   launch:  grid=cdiv(rows,32) block=32
   flops:   4*rows*D
   tol:     1e-5
*/
__global__ void minmax_scale_rows(const float* x, float* y, int rows, int D)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        const float* xr = &x[(long)r * D];
        float lo = xr[0];
        float hi = xr[0];
        for (int j = 1; j < D; j++) {
            float v = xr[j];
            if (v < lo) {
                lo = v;
            } else if (v > hi) {
                hi = v;
            }
        }
        float inv_range = 1.0f / (hi - lo);
        for (int j = 0; j < D; j++) {
            y[(long)r * D + j] = (xr[j] - lo) * inv_range;
        }
    }
}
