// y[r][c] = exp((x[r][c] - max_r) / T) / sum over c' of exp((x[r][c'] - max_r) / T): row softmax with a temperature T (torch.softmax(x / T, dim=1)), three passes, one thread per row.
__device__ __forceinline__ float scaled_exp(float v, float m, float inv_t) { return __expf((v - m) * inv_t); }

/* @optiml
   sizes:       rows=65536 cols=1000    # 250 MiB in (read three times), 250 MiB out
   check:       rows=1 cols=1; rows=3 cols=7; rows=37 cols=1000; rows=300 cols=2; rows=2 cols=3001
   x:           in  float[rows*cols] normal(0,3)
   y:           out float[rows*cols]
   temperature: 0.7
   launch:      grid=cdiv(rows,256) block=256
   flops:       5*rows*cols
   tol:         1e-4                    # __expf
*/
__global__ void softmax_temperature(const float* x, float* y, const float temperature, const int rows, const int cols)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    const float inv_t = 1.0f / temperature;
    const size_t base = static_cast<size_t>(r) * cols;
    float m = x[base];
    for (int c = 1; c < cols; ++c)
        m = x[base + c] > m ? x[base + c] : m;
    float denom = 0;
    for (int c = 0; c < cols; ++c)
        denom += scaled_exp(x[base + c], m, inv_t);
    for (int c = 0; c < cols; ++c)
        y[base + c] = scaled_exp(x[base + c], m, inv_t) / denom;
}
