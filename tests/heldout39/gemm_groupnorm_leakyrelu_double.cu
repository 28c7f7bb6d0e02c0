// y[b][c] = 2 * leaky(gamma[c] * (z[b][c] - mean_g) / sqrt(var_g + 1e-5) + beta[c]) with z = x @ w^T + bias, (mean_g, var_g) the mean and biased variance of z[b] over c's group of H / G features and leaky(v) = v > 0 ? v : 0.01 v: KernelBench level 2's Matmul_GroupNorm_LeakyReLU_Sum (`x = self.fc(x); x = self.gn(x); x = self.leaky_relu(x); x = x + x`, nn.GroupNorm(G, H, eps=1e-5)) at batch 1024, 4096 -> 4096 features in 256 groups of 16 (KernelBench's group size, its widths halved), fp32; one thread per (row, group) on a 2-D grid (groups on x in blocks of 32, rows on blockIdx.y), early return, `#define` constants, and three passes over the group that each recompute the group's dot products (the mean, then the variance about it, then the normalised, activated and doubled outputs); x `uniform(0,1)` (`torch.rand`), w and bias `uniform(-0.0156,0.0156)` (nn.Linear's bound 1/sqrt(4096)), gamma `uniform(0.5,1.5)`, beta `uniform(-0.5,0.5)`.

#define GN_EPS 1e-5f
#define NEG_SLOPE 0.01f

/* @optiml
   sizes:   B=1024 IN=4096 H=4096 G=256   # x 16 MiB, w 64 MiB, bias/gamma/beta 48 KiB in, y 16 MiB out; 103.1 GFLOP (three product passes)
   check:   B=1 IN=1 H=2 G=1; B=2 IN=3 H=8 G=2; B=3 IN=17 H=48 G=16; B=5 IN=64 H=100 G=4; B=33 IN=40 H=64 G=64; B=7 IN=129 H=96 G=3; B=2 IN=5 H=330 G=33; B=1 IN=2 H=7 G=1
   x:       in  float[B*IN] uniform(0,1)
   w:       in  float[H*IN] uniform(-0.0156,0.0156)
   bias:    in  float[H] uniform(-0.0156,0.0156)
   gamma:   in  float[H] uniform(0.5,1.5)
   beta:    in  float[H] uniform(-0.5,0.5)
   y:       out float[B*H]
   launch:  grid=(cdiv(G,32),B) block=32
   flops:   6*B*H*IN + 10*B*H
   tol:     1e-4
*/
__global__ void gemm_groupnorm_leakyrelu_double(const float* x, const float* w, const float* bias,
                                                const float* gamma, const float* beta, float* y,
                                                int B, int IN, int H, int G)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y;
    if (g >= G)
        return;

    int per_group = H / G;
    int c0 = g * per_group;
    const float* xr = x + (size_t)row * IN;

    // pass 1: mean of the group's features
    float sum = 0.0f;
    for (int c = c0; c < c0 + per_group; c++) {
        float acc = bias[c];
        for (int k = 0; k < IN; k++)
            acc += xr[k] * w[(size_t)c * IN + k];
        sum += acc;
    }
    float mean = sum / per_group;

    // pass 2: biased variance about the mean
    float sq = 0.0f;
    for (int c = c0; c < c0 + per_group; c++) {
        float acc = bias[c];
        for (int k = 0; k < IN; k++)
            acc += xr[k] * w[(size_t)c * IN + k];
        float d = acc - mean;
        sq += d * d;
    }
    float rstd = 1.0f / sqrtf(sq / per_group + GN_EPS);

    // pass 3: normalise, affine, leaky ReLU, x + x
    for (int c = c0; c < c0 + per_group; c++) {
        float acc = bias[c];
        for (int k = 0; k < IN; k++)
            acc += xr[k] * w[(size_t)c * IN + k];
        float v = (acc - mean) * rstd * gamma[c] + beta[c];
        v = v > 0.0f ? v : NEG_SLOPE * v;
        y[(size_t)row * H + c] = v + v;
    }
}
