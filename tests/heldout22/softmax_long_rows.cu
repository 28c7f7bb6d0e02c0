// y[r][j] = exp(x[r][j] - max_k x[r][k]) / sum_k exp(x[r][k] - max): torch.softmax(x, dim=1) on 16 rows of a million logits (KernelBench level 1's Softmax with a much longer dim); one block of 256 threads per row, three strided passes (max, sum of exponentials, write) with a shared-memory tree reduction after each of the first two.
#include <cfloat>

/* @optiml
   sizes:   rows=16 D=1048576           # x 64 MiB in, y 64 MiB out
   check:   rows=1 D=1; rows=2 D=7; rows=3 D=300; rows=16 D=1000; rows=1 D=40000; rows=4 D=4099
   x:       in  float[rows*D] normal(0,3)
   y:       out float[rows*D]
   launch:  grid=rows block=256
   flops:   5*rows*D
   tol:     1e-4
*/
__global__ void softmax_long(const float* x, float* y, int rows, int D)
{
    __shared__ float red[256];
    int row = blockIdx.x;
    int t = threadIdx.x;
    const float* in = x + (long)row * D;
    float* out = y + (long)row * D;

    float m = -FLT_MAX;
    for (int j = t; j < D; j += blockDim.x)
        m = fmaxf(m, in[j]);
    red[t] = m;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (t < s) {
            red[t] = fmaxf(red[t], red[t + s]);
        }
        __syncthreads();
    }
    float row_max = red[0];
    __syncthreads();

    float sum = 0.0f;
    for (int j = t; j < D; j += blockDim.x)
        sum += expf(in[j] - row_max);
    red[t] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (t < s) {
            red[t] += red[t + s];
        }
        __syncthreads();
    }
    float row_sum = red[0];

    for (int j = t; j < D; j += blockDim.x)
        out[j] = expf(in[j] - row_max) / row_sum;
}
