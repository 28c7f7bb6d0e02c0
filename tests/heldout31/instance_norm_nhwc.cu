// y[n][h][w][c] = (x[n][h][w][c] - mean_nc) / sqrt(var_nc + 1e-5) * weight[c] + bias[c], mean_nc and the biased var_nc over the H x W positions of one channel of one image: `nn.InstanceNorm2d(64, affine=True)` (KernelBench level 1's InstanceNorm, here with its affine, as in the style-transfer and CycleGAN generators) run on channels-last activations [16, 128, 128, 64] NHWC fp32; one thread per (n, c) on a 2-D grid of 64 threads (channels on x so neighbouring threads read neighbouring floats, blockIdx.y = n), three passes down the plane with a stride of C floats (mean, variance, write), the eps a `constexpr float`, plain `int` offsets, a braced bounds if, __restrict__ on every pointer.

constexpr float kEps = 1e-5f;

/* @optiml
   sizes:   N=16 H=128 W=128 C=64   # x 64 MiB in, y 64 MiB out; 0.12 GFLOP
   check:   N=1 H=1 W=2 C=1; N=2 H=3 W=5 C=3; N=1 H=7 W=2 C=65; N=3 H=4 W=4 C=2; N=1 H=17 W=9 C=5; N=2 H=1 W=33 C=7
   x:       in  float[N*H*W*C]
   weight:  in  float[C]
   bias:    in  float[C]
   y:       out float[N*H*W*C]
   launch:  grid=(cdiv(C,64),N) block=64
   flops:   7*N*H*W*C
   tol:     1e-5
*/
__global__ void instance_norm_nhwc(const float* __restrict__ x, const float* __restrict__ weight,
                                   const float* __restrict__ bias, float* __restrict__ y, int N, int H, int W, int C)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int n = blockIdx.y;
    if (c < C) {
        int HW = H * W;
        const float* xp = x + n * HW * C + c;
        float* yp = y + n * HW * C + c;

        float sum = 0.0f;
        for (int p = 0; p < HW; ++p)
            sum += xp[p * C];
        float mean = sum / HW;

        float var = 0.0f;
        for (int p = 0; p < HW; ++p) {
            float d = xp[p * C] - mean;
            var += d * d;
        }
        var /= HW;

        float scale = weight[c] / sqrtf(var + kEps);
        float shift = bias[c];
        for (int p = 0; p < HW; ++p)
            yp[p * C] = (xp[p * C] - mean) * scale + shift;
    }
}
