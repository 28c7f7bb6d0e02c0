// var[r] = (1 / (D - 1)) sum_k (x[r][k] - mean[r])^2, mean[r] = (1 / D) sum_k x[r][k]: `torch.var_mean(x, dim=-1)` (correction=1, the unbiased variance, returned with the mean, as a per-token feature statistic or a running-statistics update computes them) on [16384, 4096] fp32 rows, x `normal(0.5,2)`; ported from a CPU loop over the rows: one thread per row on a 1-D launch, early return, a `__device__` helper with its own loop for the mean, a second pass over the row for the squared deviations, `ptrdiff_t` row offsets (<cstddef>) with `static_cast`, the divisors spelled `static_cast<float>(D - 1)`, two outputs.
#include <cstddef>

__device__ float row_mean(const float* row, int n)
{
    float s = 0.0f;
    for (int k = 0; k < n; ++k)
        s += row[k];
    return s / static_cast<float>(n);
}

/* @optiml
   sizes:   rows=16384 D=4096   # x 256 MiB in, var 64 KiB out, mean 64 KiB out; 0.27 GFLOP
   check:   rows=1 D=2; rows=3 D=7; rows=129 D=64; rows=2 D=1000; rows=300 D=5; rows=17 D=4096
   x:       in  float[rows*D] normal(0.5,2)
   var:     out float[rows]
   mean:    out float[rows]
   launch:  grid=cdiv(rows,128) block=128
   flops:   4*rows*D
   tol:     1e-5
*/
__global__ void var_mean_rows(const float* x, float* var, float* mean, int rows, int D)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;

    const float* row = x + static_cast<ptrdiff_t>(r) * D;
    const float m = row_mean(row, D);
    float ss = 0.0f;
    for (int k = 0; k < D; ++k) {
        const float d = row[k] - m;
        ss += d * d;
    }
    var[r] = ss / static_cast<float>(D - 1);
    mean[r] = m;
}
