// y[r][j] = exp(x[r][j] - max_k x[r][k]) / sum_k exp(x[r][k] - max): torch.softmax(x, dim=-1) (KernelBench level 1's Softmax, here 8192 rows of 2048 logits); one block of 256 threads per row, each warp reducing its threads' values with __shfl_xor_sync, the 8 warp results put in shared memory and combined by the first warp, which leaves the row max (then the row sum) in a __shared__ scalar; a write pass multiplies by 1 / sum.
#include <cfloat>

/* @optiml
   sizes:   rows=8192 D=2048            # x 64 MiB in, y 64 MiB out
   check:   rows=1 D=1; rows=2 D=7; rows=3 D=255; rows=5 D=1000; rows=1 D=4097; rows=2 D=513
   x:       in  float[rows*D] normal(0,2)
   y:       out float[rows*D]
   launch:  grid=rows block=256
   flops:   5*rows*D
   tol:     1e-4
*/
__global__ void softmax_rows_warp(const float* x, float* y, int rows, int D)
{
    __shared__ float warp_vals[8];
    __shared__ float row_max;
    __shared__ float row_sum;

    int tid = threadIdx.x;
    int lane = tid % 32;
    int warp = tid / 32;
    const float* xr = x + (long)blockIdx.x * D;
    float* yr = y + (long)blockIdx.x * D;

    // max
    float m = -FLT_MAX;
    for (int j = tid; j < D; j += blockDim.x)
        m = fmaxf(m, xr[j]);
    for (int offset = 16; offset > 0; offset /= 2)
        m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, offset));
    if (lane == 0)
        warp_vals[warp] = m;
    __syncthreads();
    if (warp == 0) {
        m = (lane < blockDim.x / 32) ? warp_vals[lane] : -FLT_MAX;
        for (int offset = 16; offset > 0; offset /= 2)
            m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, offset));
        if (lane == 0)
            row_max = m;
    }
    __syncthreads();
    float mx = row_max;

    // sum of exponentials
    float s = 0.0f;
    for (int j = tid; j < D; j += blockDim.x)
        s += expf(xr[j] - mx);
    for (int offset = 16; offset > 0; offset /= 2)
        s += __shfl_xor_sync(0xffffffff, s, offset);
    if (lane == 0)
        warp_vals[warp] = s;
    __syncthreads();
    if (warp == 0) {
        s = (lane < blockDim.x / 32) ? warp_vals[lane] : 0.0f;
        for (int offset = 16; offset > 0; offset /= 2)
            s += __shfl_xor_sync(0xffffffff, s, offset);
        if (lane == 0)
            row_sum = s;
    }
    __syncthreads();
    float inv_sum = 1.0f / row_sum;

    for (int j = tid; j < D; j += blockDim.x)
        yr[j] = expf(xr[j] - mx) * inv_sum;
}
