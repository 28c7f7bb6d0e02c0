// y[r][c] = max over c' <= c of x[r][c']: inclusive prefix maximum along each row of a rows x cols matrix (torch.cummax values), one thread per row.
/* @optiml
   sizes:  rows=32768 cols=1024         # 2^25 floats: 128 MiB in, 128 MiB out
   check:  rows=1 cols=1; rows=3 cols=7; rows=17 cols=129; rows=64 cols=2
   x:      in  float[rows*cols]
   y:      out float[rows*cols]
   launch: grid=cdiv(rows,64) block=64
*/
__global__ void cummax_rows(const float* x, float* y, int rows, int cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    const float* src = x + (size_t)row * cols;
    float* dst = y + (size_t)row * cols;
    float m = src[0];
    int c = 0;
    do {
        m = fmaxf(m, src[c]);
        dst[c] = m;
    } while (++c < cols);
}
