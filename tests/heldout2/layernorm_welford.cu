// y = (x - mean) / sqrt(var + eps) * gamma + beta per row, the mean and variance accumulated by Welford's method.
/* @optiml
   sizes:  rows=32768 cols=768
   check:  rows=4 cols=9; rows=1 cols=1; rows=11 cols=300
   x:      in  float[rows*cols]
   gamma:  in  float[cols]
   beta:   in  float[cols]
   y:      out float[rows*cols]
   eps:    1e-5
   launch: grid=cdiv(rows,64) block=64
   flops:  8*rows*cols
   tol:    1e-4
*/
__global__ void layernorm_welford(const float* x, const float* gamma, const float* beta, float* y, float eps,
                                  int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float mean = 0.0f, m2 = 0.0f;
    for (int c = 0; c < cols; ++c) {
        float v = x[r * cols + c];
        float delta = v - mean;
        mean += delta / (c + 1);
        m2 += delta * (v - mean);
    }
    float rstd = rsqrtf(m2 / cols + eps);
    for (int c = 0; c < cols; ++c)
        y[r * cols + c] = (x[r * cols + c] - mean) * rstd * gamma[c] + beta[c];
}
