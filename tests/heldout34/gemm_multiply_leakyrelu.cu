// y[b][j] = leaky_relu((bias[j] + sum_k x[b][k] * weight[j][k]) * multiplier, negative_slope) with multiplier 2.0 and negative_slope 0.1: KernelBench level 2's Gemm_Multiply_LeakyReLU (`x = self.gemm(x); x = x * self.multiplier; x = self.leaky_relu(x)`) with nn.Linear(8192, 8192) at batch 512 fp32, weight in nn.Linear's [out][in] layout; ported from a CPU triple loop: one thread per output on a 2-D grid of 16 x 16 blocks (the feature on x, the batch row on y), early return, a `__device__ inline` dot-product helper with its own loop over hoisted `const float*` row pointers, `size_t` row offsets with `static_cast`, the bias added after the dot product as `addmm` adds it, a ternary leaky ReLU, multiplier and negative_slope float arguments with their own contract lines, KernelBench's names.

__device__ inline float dot(const float* a, const float* b, int n)
{
    float s = 0.0f;
    for (int k = 0; k < n; ++k)
        s += a[k] * b[k];
    return s;
}

/* @optiml
   sizes:   batch_size=512 in_features=8192 out_features=8192   # x 16 MiB in, weight 256 MiB in, bias 32 KiB in, y 16 MiB out; 68.7 GFLOP
   check:   batch_size=1 in_features=1 out_features=1; batch_size=3 in_features=7 out_features=5; batch_size=2 in_features=64 out_features=129; batch_size=5 in_features=33 out_features=300; batch_size=1 in_features=100 out_features=1000; batch_size=17 in_features=1 out_features=65
   x:               in  float[batch_size*in_features]
   weight:          in  float[out_features*in_features] uniform(-0.011,0.011)
   bias:            in  float[out_features] uniform(-0.011,0.011)
   y:               out float[batch_size*out_features]
   multiplier:      2.0
   negative_slope:  0.1
   launch:          grid=(cdiv(out_features,16),cdiv(batch_size,16)) block=(16,16)
   flops:           2*batch_size*in_features*out_features + 4*batch_size*out_features
   tol:             1e-4
*/
__global__ void gemm_multiply_leakyrelu(const float* x, const float* weight, const float* bias, float* y,
                                        float multiplier, float negative_slope, int batch_size, int in_features,
                                        int out_features)
{
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= batch_size || col >= out_features)
        return;

    const float* xr = x + static_cast<size_t>(row) * in_features;
    const float* wr = weight + static_cast<size_t>(col) * in_features;
    const float v = (dot(xr, wr, in_features) + bias[col]) * multiplier;
    y[static_cast<size_t>(row) * out_features + col] = v > 0.0f ? v : v * negative_slope;
}
