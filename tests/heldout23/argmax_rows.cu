// out[r] = argmax_j x[r][j], the first index of the row's largest value: torch.argmax(x, dim=1) (KernelBench level 1's Argmax over a dimension) on 512 rows of 65536 values; one block of 128 threads per row, each thread keeping its best (value, index) over a strided walk with a strict >, then a shared-memory tree reduction of the (value, index) pairs that keeps the lower index on a tie; thread 0 writes the int64 index.
#include <cstdint>
#include <cfloat>
#define BLOCK 128

/* @optiml
   sizes:   rows=512 D=65536            # x 128 MiB in, out 4 KiB (int64)
   check:   rows=1 D=1; rows=2 D=7; rows=3 D=127; rows=4 D=1000; rows=1 D=40000; rows=6 D=129
   x:       in  float[rows*D]
   out:     out int64_t[rows]
   launch:  grid=rows block=128
   tol:     1e-5
*/
__global__ void argmax_rows(const float* x, int64_t* out, int rows, int D)
{
    __shared__ float best_val[BLOCK];
    __shared__ size_t best_idx[BLOCK];

    size_t tid = threadIdx.x;
    const float* xr = x + (size_t)blockIdx.x * D;

    float v = -FLT_MAX;
    size_t idx = tid;
    for (size_t j = tid; j < (size_t)D; j += BLOCK) {
        if (xr[j] > v) {
            v = xr[j];
            idx = j;
        }
    }
    best_val[tid] = v;
    best_idx[tid] = idx;
    __syncthreads();

    for (unsigned int s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s) {
            float other = best_val[tid + s];
            size_t other_idx = best_idx[tid + s];
            if (other > best_val[tid] || (other == best_val[tid] && other_idx < best_idx[tid])) {
                best_val[tid] = other;
                best_idx[tid] = other_idx;
            }
        }
        __syncthreads();
    }

    if (tid == 0)
        out[blockIdx.x] = (int64_t)best_idx[0];
}
