// y[b] = max_j (bias[j] + sum_k x[b][k] * weight[j][k]): `torch.max(self.gemm(x), dim=1, keepdim=True).values` (the Gemm + max-over-features head of KernelBench level 2's Gemm_Max_Subtract_GELU, whose mean-subtract and GELU of the resulting [batch, 1] tensor only give zeros, here kept to the max) with nn.Linear(4096, 8192) at batch 1024 -> [1024, 1] fp32, weight in nn.Linear's [out][in] layout; one block of 128 threads per row, each thread taking a strided slice of the output features with an `fmaf` dot product, then a `__shared__` max tree with `#pragma unroll` over its constant steps, a function-like `IDX(r, c, ld)` macro for every 2-D index, `unsigned int` thread and feature indices, a -FLT_MAX seed (<cfloat>) and ternary maxima, KernelBench's names.
#include <cfloat>

#define IDX(r, c, ld) ((size_t)(r) * (ld) + (c))
#define NTHREADS 128

/* @optiml
   sizes:   batch_size=1024 in_features=4096 out_features=8192   # x 16 MiB in, weight 128 MiB in, bias 32 KiB in, y 4 KiB out; 68.7 GFLOP
   check:   batch_size=1 in_features=1 out_features=1; batch_size=3 in_features=7 out_features=5; batch_size=2 in_features=64 out_features=129; batch_size=5 in_features=33 out_features=300; batch_size=1 in_features=100 out_features=1000; batch_size=4 in_features=1 out_features=128
   x:       in  float[batch_size*in_features]
   weight:  in  float[out_features*in_features] uniform(-0.015625,0.015625)
   bias:    in  float[out_features] uniform(-0.015625,0.015625)
   y:       out float[batch_size]
   launch:  grid=batch_size block=128
   flops:   2*batch_size*in_features*out_features + batch_size*out_features
   tol:     1e-4
*/
__global__ void gemm_max_features(const float* x, const float* weight, const float* bias, float* y,
                                  int batch_size, int in_features, int out_features)
{
    __shared__ float smax[NTHREADS];
    const unsigned int row = blockIdx.x;
    const unsigned int tid = threadIdx.x;

    float best = -FLT_MAX;
    for (unsigned int j = tid; j < (unsigned int)out_features; j += NTHREADS) {
        float acc = bias[j];
        for (int k = 0; k < in_features; ++k)
            acc = fmaf(x[IDX(row, k, in_features)], weight[IDX(j, k, in_features)], acc);
        best = acc > best ? acc : best;
    }
    smax[tid] = best;
    __syncthreads();

#pragma unroll
    for (unsigned int s = NTHREADS / 2; s > 0; s >>= 1) {
        if (tid < s)
            smax[tid] = smax[tid + s] > smax[tid] ? smax[tid + s] : smax[tid];
        __syncthreads();
    }
    if (tid == 0)
        y[row] = smax[0];
}
