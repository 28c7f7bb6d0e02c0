// y[b] = softmax(gelu(x[b] @ W^T + bias)) over the output features (erf GELU): KernelBench level 2's Matmul_GELU_Softmax (`x = self.linear(x); x = F.gelu(x); x = F.softmax(x, dim=1)`) at batch 4096, 1024 -> 1024 features (KernelBench's 1024 x 8192 x 8192 cut so that one thread a row stays reasonable), fp32; one thread a row in a grid-stride loop over rows on a fixed grid (`grid=min(cdiv(batch,64),32)` blocks of 64, so a 4096-row batch takes two sweeps), three serial passes over the row: the GELU of each product written to y while keeping the running maximum, then exp(y - max) written back and summed, then a multiply by the reciprocal of the sum; plain `int` offsets, a `#define` for the most negative float; x `uniform(0,1)` (`torch.rand`), W and bias `uniform(-0.031,0.031)` (nn.Linear's bound 1/sqrt(1024)).

#define NEG_FLT_MAX (-3.402823466e+38f)

/* @optiml
   sizes:   batch=4096 in_features=1024 out_features=1024   # x 16 MiB, W 4 MiB, bias 4 KiB in, y 16 MiB out; 8.6 GFLOP
   check:   batch=1 in_features=1 out_features=1; batch=3 in_features=5 out_features=7; batch=65 in_features=16 out_features=33; batch=2100 in_features=3 out_features=5; batch=2 in_features=100 out_features=300; batch=130 in_features=9 out_features=64; batch=4097 in_features=1 out_features=2
   x:       in  float[batch*in_features] uniform(0,1)
   W:       in  float[out_features*in_features] uniform(-0.031,0.031)
   bias:    in  float[out_features] uniform(-0.031,0.031)
   y:       out float[batch*out_features]
   launch:  grid=min(cdiv(batch,64),32) block=64
   flops:   2*batch*out_features*in_features + 12*batch*out_features
   tol:     1e-5
*/
__global__ void linear_gelu_softmax(const float* x, const float* W, const float* bias, float* y,
                                    int batch, int in_features, int out_features)
{
    for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < batch; r += gridDim.x * blockDim.x) {
        const float* xr = x + r * in_features;
        float* yr = y + r * out_features;

        float mx = NEG_FLT_MAX;
        for (int o = 0; o < out_features; o++) {
            float acc = bias[o];
            for (int i = 0; i < in_features; i++)
                acc += xr[i] * W[o * in_features + i];
            float g = 0.5f * acc * (1.0f + erff(acc * 0.7071067811865475f));
            yr[o] = g;
            if (g > mx)
                mx = g;
        }

        float sum = 0.0f;
        for (int o = 0; o < out_features; o++) {
            float e = expf(yr[o] - mx);
            yr[o] = e;
            sum += e;
        }

        float inv = 1.0f / sum;
        for (int o = 0; o < out_features; o++)
            yr[o] = yr[o] * inv;
    }
}
