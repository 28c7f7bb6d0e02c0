// out[r] = sum_j x[r][j] / D: torch.mean(x, dim=-1) (KernelBench level 1's Mean reduction over a dimension, here the last one of a [2048, 16384] tensor); one block of 64 threads per row, each thread a strided partial sum stored in shared memory, then thread 0 adds the 64 partials one after the other and writes the mean.
/* @optiml
   sizes:   rows=2048 D=16384           # x 128 MiB in, out 8 KiB
   check:   rows=1 D=1; rows=2 D=7; rows=3 D=63; rows=5 D=1000; rows=1 D=40001; rows=7 D=129
   x:       in  float[rows*D] normal(0.5,1)
   out:     out float[rows]
   launch:  grid=rows block=64
   flops:   rows*D
   tol:     1e-4
*/
__global__ void mean_rows_serial(const float* x, float* out, unsigned int rows, unsigned int D)
{
    __shared__ float partial[64];
    unsigned int row = blockIdx.x;
    unsigned int t = threadIdx.x;

    float acc = 0.0f;
    for (unsigned int j = t; j < D; j += 64)
        acc += x[(size_t)row * D + j];
    partial[t] = acc;
    __syncthreads();

    if (t == 0) {
        float total = 0.0f;
        for (unsigned int k = 0; k < 64; k++)
            total += partial[k];
        out[row] = total / D;
    }
}
