// y = s * swish(x W^T + b), swish(v) = v * sigmoid(v): nn.Linear (x batch x in_features, W out_features x in_features, as nn.Linear stores it) followed by Swish and a scaling factor (KernelBench level 2, 59_Matmul_Swish_Scaling), fused; one thread per output.
/* @optiml
   sizes:          batch=4096 in_features=2048 out_features=2048   # x 32 MiB, W 16 MiB in, y 32 MiB out
   check:          batch=1 in_features=1 out_features=1; batch=3 in_features=5 out_features=7; batch=33 in_features=65 out_features=17; batch=2 in_features=1000 out_features=3; batch=70 in_features=2 out_features=129
   x:              in  float[batch*in_features]
   weight:         in  float[out_features*in_features] uniform(-0.05,0.05)
   bias:           in  float[out_features] uniform(-0.05,0.05)
   y:              out float[batch*out_features]
   scaling_factor: 2.0
   launch:         grid=(cdiv(out_features,32),cdiv(batch,8)) block=(32,8)
   flops:          2*batch*out_features*in_features + 5*batch*out_features
   tol:            1e-4
*/
__global__ void matmul_swish_scaling(const float* __restrict__ x, const float* __restrict__ weight,
                                     const float* __restrict__ bias, float* __restrict__ y, float scaling_factor,
                                     int batch, int in_features, int out_features)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;   // output feature
    int row = blockIdx.y * blockDim.y + threadIdx.y;   // sample
    if (row < batch && col < out_features) {
        float sum = bias[col];
        for (int i = 0; i < in_features; ++i)
            sum += x[row * in_features + i] * weight[col * in_features + i];
        float sig = 1.0f / (1.0f + expf(-sum));
        y[row * out_features + col] = sum * sig * scaling_factor;
    }
}
