// values[r][0..3], indices[r][0..3] = the 4 largest x[r][c] and their columns, largest first: torch.topk(x, 4, dim=1) (sorted, values and int64 indices) over 65536 rows of 500 scores (picking the top-4 candidates per query, as beam search and retrieval do); one thread per row on a 1-D launch, an early return, a sorted local array of 4 (value, index) pairs filled by insertion with a strict > (the first of equal values stays ahead), #pragma unroll on the loops over the 4 slots, -INFINITY seeds.
#include <cstdint>
#include <math.h>
#define TOPK 4

/* @optiml
   sizes:   rows=65536 cols=500         # x 125 MiB in, values 1 MiB and indices 2 MiB (int64) out
   check:   rows=1 cols=4; rows=3 cols=5; rows=7 cols=33; rows=130 cols=4; rows=2 cols=1000; rows=257 cols=17
   x:       in  float[rows*cols]
   values:  out float[rows*4]
   indices: out int64_t[rows*4]
   launch:  grid=cdiv(rows,128) block=128
   flops:   4*rows*cols
   tol:     1e-5
*/
__global__ void topk4_rows(const float* x, float* values, int64_t* indices, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;

    const float* row = x + (size_t)r * cols;
    float best[TOPK];
    int64_t where[TOPK];
#pragma unroll
    for (int k = 0; k < TOPK; k++) {
        best[k] = -INFINITY;
        where[k] = -1;
    }

    for (int c = 0; c < cols; c++) {
        float v = row[c];
        if (v > best[TOPK - 1]) {
            int k = TOPK - 1;
            while (k > 0 && v > best[k - 1]) {
                best[k] = best[k - 1];
                where[k] = where[k - 1];
                k--;
            }
            best[k] = v;
            where[k] = c;
        }
    }

#pragma unroll
    for (int k = 0; k < TOPK; k++) {
        values[(size_t)r * TOPK + k] = best[k];
        indices[(size_t)r * TOPK + k] = where[k];
    }
}
