// Per-row int8-style quantization: scale[r] = max |x[r,:]| / 127, q[r,:] = round(x[r,:] / scale[r]), and
// l1[r] = offset[r] + sum |x[r,:]|. Two loops are the lone branches of ifs (one with an else), a loop stores
// elementwise after the reduction, and the sum enters its loop holding a per-row value.
/* @optiml
   sizes:  rows=16384 cols=768
   check:  rows=37 cols=1000; rows=1 cols=3; rows=100 cols=1; rows=7 cols=2050
   x:      in  float[rows*cols]
   offset: in  float[rows]
   scale:  out float[rows]
   l1:     out float[rows]
   q:      out float[rows*cols]
   launch: grid=cdiv(rows,128) block=128
   tol:    1e-4
*/
__global__ void row_absmax_quantize(const float* x, const float* offset, float* scale, float* l1, float* q,
                                    int rows, int cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        float amax = 0.0f;
        if (cols > 0)
            for (int c = 0; c < cols; c++)
                amax = fmaxf(amax, fabsf(x[row * cols + c]));
        float total = offset[row];
        if (cols > 1)
            for (int c = 0; c < cols; c++)
                total += fabsf(x[row * cols + c]);
        else
            total = total + fabsf(x[row * cols]);
        const float inv = amax > 0.0f ? 127.0f / amax : 0.0f;
        scale[row] = amax / 127.0f;
        l1[row] = total;
        for (int c = 0; c < cols; c++)
            q[row * cols + c] = rintf(x[row * cols + c] * inv);
    }
}
