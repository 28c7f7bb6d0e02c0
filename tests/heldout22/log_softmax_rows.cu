// y[r][j] = x[r][j] - max - log(sum_k exp(x[r][k] - max)): torch.log_softmax(x, dim=1) (KernelBench level 1's LogSoftmax) on 8 rows of two million values; one thread per row, three passes over it (max with a ternary, sum of exponentials, write), int64_t indices.
#include <cstdint>
#include <cmath>

/* @optiml
   sizes:   rows=8 D=2097152            # x 64 MiB in, y 64 MiB out
   check:   rows=1 D=1; rows=2 D=7; rows=3 D=1000; rows=8 D=513; rows=1 D=40000; rows=6 D=4099
   x:       in  float[rows*D] normal(0,3)
   y:       out float[rows*D]
   launch:  grid=1 block=64
   flops:   5*rows*D
   tol:     1e-4
*/
__global__ void log_softmax_few_rows(const float* x, float* y, int64_t rows, int64_t D)
{
    int64_t r = threadIdx.x;
    if (r < rows) {
        int64_t start = r * D;
        int64_t end = start + D;

        float mx = x[start];
        for (int64_t i = start + 1; i < end; ++i)
            mx = x[i] > mx ? x[i] : mx;

        float sum = 0.0f;
        for (int64_t i = start; i < end; ++i)
            sum += expf(x[i] - mx);
        float lse = mx + logf(sum);

        for (int64_t i = start; i < end; ++i)
            y[i] = x[i] - lse;
    }
}
