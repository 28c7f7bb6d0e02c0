// out[b][k] = gelu(mean_j(x[b] @ wt[:, j] + bias[j] - subtract[j])) + x[b][k] (erf GELU): KernelBench level 2's Gemm_Subtract_GlobalAvgPool_LogSumExp_GELU_ResidualAdd (`x = self.gemm(x); x = x - self.subtract; x = torch.mean(x, dim=1, keepdim=True); x = torch.logsumexp(x, dim=1, keepdim=True); x = F.gelu(x); x = x + original_x`; the logsumexp of one element is that element) at batch 2048, 2048 -> 2048 features (KernelBench's widths of 8192 quartered: one thread a row), the Gemm weight kept transposed as `wt = gemm.weight.t().contiguous()`, [in, out] (the `x @ W` layout), fp32; one thread a row (1-D launch, early return) that loops over the output features, forms each dot product down a column of wt inside the loop and keeps a running sum, then writes the residual row; `int64_t` sizes and offsets; x `uniform(0,1)` (`torch.rand`), wt and bias `uniform(-0.022,0.022)` (nn.Linear's bound 1/sqrt(2048)), subtract `normal(0,1)` (`torch.randn`).

#include <cstdint>

/* @optiml
   sizes:    batch=2048 in_f=2048 out_f=2048   # x 16 MiB, wt 16 MiB, bias/subtract 16 KiB in, out 16 MiB out; 17.2 GFLOP
   check:    batch=1 in_f=1 out_f=1; batch=3 in_f=5 out_f=7; batch=129 in_f=2 out_f=3; batch=2 in_f=64 out_f=300; batch=17 in_f=33 out_f=1; batch=5 in_f=1 out_f=100; batch=260 in_f=7 out_f=9
   x:        in  float[batch*in_f] uniform(0,1)
   wt:       in  float[in_f*out_f] uniform(-0.022,0.022)
   bias:     in  float[out_f] uniform(-0.022,0.022)
   subtract: in  float[out_f] normal(0,1)
   out:      out float[batch*in_f]
   launch:   grid=cdiv(batch,128) block=128
   flops:    2*batch*in_f*out_f + 2*batch*out_f + batch*in_f
   tol:      1e-5
*/
__global__ void gemm_sub_mean_gelu_residual(const float* x, const float* wt, const float* bias,
                                            const float* subtract, float* out,
                                            int64_t batch, int64_t in_f, int64_t out_f)
{
    int64_t row = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= batch)
        return;

    const float* xr = x + row * in_f;

    float total = 0.0f;
    for (int64_t j = 0; j < out_f; j++) {
        float acc = bias[j];
        for (int64_t k = 0; k < in_f; k++)
            acc += xr[k] * wt[k * out_f + j];
        total += acc - subtract[j];
    }
    float m = total / (float)out_f;           // mean over the features; logsumexp of [m] is m
    float g = 0.5f * m * (1.0f + erff(m * 0.7071067811865475f));

    float* orow = out + row * in_f;
    for (int64_t k = 0; k < in_f; k++)
        orow[k] = g + xr[k];
}
