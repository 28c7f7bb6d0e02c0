// y[b][j] = min(bias[j] + sum_k x[b][k] * weight[j][k], c) - c with c = 0.5: KernelBench level 2's Matmul_Min_Subtract (`x = self.linear(x); x = torch.min(x, self.constant); x = x - self.constant`), here nn.Linear(1024, 4096) at batch 8192 with the constant 0.5 so the min acts on a third of the outputs, fp32, weight in nn.Linear's [out][in] layout; one thread per output on a 1-D launch with a `long long` flat index split by / and %, early return, `const` row pointers walked by post-increments (`*xr++`, `*wr++`) in a count-down loop, `fmaf`, `fminf`, the constant a float argument with its own contract line, KernelBench's names.

/* @optiml
   sizes:    batch_size=8192 in_features=1024 out_features=4096   # x 32 MiB in, weight 16 MiB in, bias 16 KiB in, y 128 MiB out; 68.8 GFLOP
   check:    batch_size=1 in_features=1 out_features=1; batch_size=3 in_features=5 out_features=7; batch_size=17 in_features=64 out_features=33; batch_size=2 in_features=300 out_features=129; batch_size=9 in_features=200 out_features=2; batch_size=40 in_features=31 out_features=65
   x:        in  float[batch_size*in_features]
   weight:   in  float[out_features*in_features] uniform(-0.1,0.1)
   bias:     in  float[out_features] uniform(-0.1,0.1)
   y:        out float[batch_size*out_features]
   constant: 0.5
   launch:   grid=cdiv(batch_size*out_features,256) block=256
   flops:    2*batch_size*in_features*out_features + 2*batch_size*out_features
   tol:      1e-4
*/
__global__ void linear_min_sub_const(const float* x, const float* weight, const float* bias, float* y, float constant,
                                     int batch_size, int in_features, int out_features)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (long long)batch_size * out_features)
        return;
    long long b = i / out_features;
    int j = (int)(i % out_features);

    const float* xr = x + b * in_features;
    const float* wr = weight + (long long)j * in_features;
    float acc = bias[j];
    for (int k = in_features; k > 0; --k)
        acc = fmaf(*xr++, *wr++, acc);
    y[i] = fminf(acc, constant) - constant;
}
