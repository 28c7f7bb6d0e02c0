/* @optiml
   sizes:  rows=4096 cols=4096
   w:      in float[rows*cols]
   scale:  out float[cols]
   launch: grid=cdiv(cols,256) block=256
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
