// y[r][j] = half(weight[j] * half(x[r][j] * rsqrt(mean_k x[r][k]^2 + eps))): Llama's LlamaRMSNorm (statistics in fp32, the normalized value cast back to the input dtype before the weight) on fp16 hidden states (4096 tokens of hidden size 8192, eps 1e-6); one block of 128 threads per row, the sum of squares reduced with __shfl_down_sync inside each warp, the 4 warp sums written to shared memory and reduced again by the first warp, thread 0 broadcasting the scale through a __shared__ float, then a write pass.
#include <cuda_fp16.h>

/* @optiml
   sizes:   rows=4096 D=8192            # x 64 MiB in, y 64 MiB out (fp16), weight 16 KiB
   check:   rows=1 D=1; rows=2 D=7; rows=3 D=129; rows=4 D=1000; rows=1 D=8193; rows=2 D=4096
   x:       in  __half[rows*D]
   weight:  in  __half[D] uniform(0.5,1.5)
   y:       out __half[rows*D]
   eps:     1e-6
   launch:  grid=rows block=128
   flops:   4*rows*D
   tol:     2e-3                        # fp16 output
*/
__global__ void rms_norm_half(const __half* x, const __half* weight, __half* y, float eps, int rows, int D)
{
    __shared__ float warp_sums[32];
    __shared__ float s_scale;

    int tid = threadIdx.x;
    int lane = tid & 31;
    int wid = tid >> 5;
    const __half* xr = x + (size_t)blockIdx.x * D;
    __half* yr = y + (size_t)blockIdx.x * D;

    float ss = 0.0f;
    for (int j = tid; j < D; j += blockDim.x) {
        float v = __half2float(xr[j]);
        ss += v * v;
    }
    for (int offset = warpSize / 2; offset > 0; offset >>= 1)
        ss += __shfl_down_sync(0xffffffff, ss, offset);
    if (lane == 0)
        warp_sums[wid] = ss;
    __syncthreads();

    if (wid == 0) {
        ss = (tid < blockDim.x / warpSize) ? warp_sums[lane] : 0.0f;
        for (int offset = warpSize / 2; offset > 0; offset >>= 1)
            ss += __shfl_down_sync(0xffffffff, ss, offset);
        if (tid == 0)
            s_scale = rsqrtf(ss / D + eps);
    }
    __syncthreads();
    float scale = s_scale;

    for (int j = tid; j < D; j += blockDim.x) {
        __half normed = __float2half(__half2float(xr[j]) * scale);    // hidden_states.to(input_dtype)
        yr[j] = __float2half(__half2float(weight[j]) * __half2float(normed));
    }
}
