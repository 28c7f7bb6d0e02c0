// y[n][c][h][w] = (x[n][c][h][w] - mean) / sqrt(var + eps), mean and biased var over the H x W plane of (n, c): InstanceNorm2d without affine parameters (nn.InstanceNorm2d(num_features), KernelBench level 1, 34_InstanceNorm) over an NCHW tensor; one thread per (n, c) plane, three passes over the plane.
/* @optiml
   sizes:        batch_size=16 num_features=64 dim1=128 dim2=128   # 2^24 floats: 64 MiB in, 64 MiB out
   check:        batch_size=1 num_features=1 dim1=1 dim2=2; batch_size=2 num_features=3 dim1=5 dim2=7; batch_size=1 num_features=4 dim1=33 dim2=31; batch_size=3 num_features=2 dim1=1 dim2=100; batch_size=5 num_features=7 dim1=2 dim2=3
   x:            in  float[batch_size*num_features*dim1*dim2]
   y:            out float[batch_size*num_features*dim1*dim2]
   eps:          1e-5
   launch:       grid=cdiv(batch_size*num_features,128) block=128
   flops:        7*batch_size*num_features*dim1*dim2
   tol:          1e-4
*/
__global__ void instance_norm2d(const float* x, float* y, float eps, int batch_size, int num_features, int dim1, int dim2)
{
    int plane = blockIdx.x * blockDim.x + threadIdx.x;   // n * num_features + c
    if (plane >= batch_size * num_features)
        return;

    const int hw = dim1 * dim2;
    const float* in = x + (size_t)plane * hw;
    float* out = y + (size_t)plane * hw;

    float mean = 0.0f;
    for (int i = 0; i < hw; i++)
        mean += in[i];
    mean /= hw;

    float var = 0.0f;
    for (int i = 0; i < hw; i++) {
        float d = in[i] - mean;
        var += d * d;
    }
    var /= hw;

    float inv_std = 1.0f / sqrtf(var + eps);
    for (int i = 0; i < hw; i++)
        out[i] = (in[i] - mean) * inv_std;
}
