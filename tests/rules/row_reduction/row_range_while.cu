// spread[row] = max - min of a row, mid[row] = their midpoint: a while loop, two accumulators in one loop
// (fmaxf and a ternary min), both starting from the row's first element, the index written `c + cols * row`.
/* @optiml
   sizes:  rows=30000 cols=1024
   check:  rows=37 cols=1000; rows=1 cols=3; rows=1000 cols=1; rows=65 cols=33
   x:      in  float[rows*cols]
   spread: out float[rows]
   mid:    out float[rows]
   launch: grid=cdiv(rows,256) block=256
*/
__global__ void row_range_while(const float* x, float* spread, float* mid, int rows, int cols)
{
    int row = blockDim.x * blockIdx.x + threadIdx.x;
    if (rows > row) {
        float hi = x[cols * row];
        float lo = hi;
        int c = 1;
        while (c < cols) {
            float v = x[c + cols * row];
            hi = fmaxf(hi, v);
            lo = (v < lo) ? v : lo;
            c++;
        }
        spread[row] = hi - lo;
        mid[row] = 0.5f * (hi + lo);
    }
}
