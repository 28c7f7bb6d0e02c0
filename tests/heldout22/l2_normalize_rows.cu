// y[r] = x[r] / max(||x[r]||_2, 1e-12): F.normalize(x, p=2, dim=1) on a few very long rows (KernelBench level 1's L2Norm, with rows of a million elements); one thread per row, a size_t while loop for the sum of squares, then a second loop writing x * (1 / norm).
#include <cstddef>

/* @optiml
   sizes:   rows=16 D=1048576           # x 64 MiB in, y 64 MiB out
   check:   rows=1 D=1; rows=2 D=7; rows=3 D=1000; rows=16 D=257; rows=1 D=40000; rows=5 D=4099
   x:       in  float[rows*D]
   y:       out float[rows*D]
   launch:  grid=1 block=rows
   flops:   3*rows*D
   tol:     1e-4
*/
__global__ void l2_normalize(const float* x, float* y, int rows, int D)
{
    int r = threadIdx.x;
    if (r >= rows) return;

    const float* row = x + (size_t)r * D;
    float* out = y + (size_t)r * D;

    float ss = 0.0f;
    size_t j = 0;
    while (j < (size_t)D) {
        ss += row[j] * row[j];
        j++;
    }
    float norm = sqrtf(ss);
    if (norm < 1e-12f) norm = 1e-12f;
    float inv = 1.0f / norm;

    j = 0;
    while (j < (size_t)D) {
        out[j] = row[j] * inv;
        j++;
    }
}
