// scale[j] = max over i of |w[i,j]| (per-column absolute maximum, e.g. for int8 quantization scales); w is rows x cols row-major.
/* @optiml
   sizes:  rows=16384 cols=4096         # 256 MiB in
   check:  rows=1000 cols=37; rows=1 cols=3; rows=3 cols=1; rows=257 cols=129
   w:      in  float[rows*cols]
   scale:  out float[cols]
   launch: grid=cdiv(cols,128) block=128
   flops:  2*rows*cols
*/
extern "C" __global__ void col_absmax(int rows, int cols, const float* w, float* scale)
{
    int j = blockDim.x * blockIdx.x + threadIdx.x;
    if (j >= cols) return;
    float m = 0.0f;
    for (int i = 0; i < rows; i++) {
        m = fmaxf(m, fabsf(w[(size_t)i * cols + j]));
    }
    scale[j] = m;
}
