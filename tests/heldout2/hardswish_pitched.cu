// out[r][c] = x[r][c] * min(max(x[r][c] + 3, 0), 6) / 6 over a rows x cols matrix stored with a row pitch (in elements) >= cols.
/* @optiml
   sizes:  rows=8192 cols=4000 pitch=4096
   check:  rows=3 cols=5 pitch=8; rows=1 cols=1 pitch=1; rows=17 cols=31 pitch=32
   x:      in  float[rows*pitch]
   out:    out float[rows*pitch]
   launch: grid=(cdiv(pitch,32),cdiv(rows,8)) block=(32,8)
   flops:  5*rows*cols
*/
__global__ void hardswish_pitched(const float* __restrict__ x, float* __restrict__ out, int rows, int cols, int pitch)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) {
        float v = x[r * pitch + c];
        float gate = fminf(fmaxf(v + 3.0f, 0.0f), 6.0f);
        out[r * pitch + c] = v * gate / 6.0f;
    } else if (r < rows && c < pitch) {
        out[r * pitch + c] = 0.0f;
    }
}
