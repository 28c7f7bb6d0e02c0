// y[p][co] = min(max(bias[co] + sum_ci x[p][ci] * weight[co][ci], 0), 6) over the pixels p of an NHWC map: `F.relu6(nn.Conv2d(24, 144, 1)(x))` (MobileNetV2's expansion 1 x 1 convolution with bias and ReLU6, channels-last, at its 56 x 56 stage) on [64, 56, 56, 24] NHWC fp32 -> [64, 56, 56, 144], inputs `uniform(0,6)` as a previous ReLU6 leaves them; a student's 2-D kernel: `dim3 block(16, 16)` with the output channel on x and the flat pixel on y, the combined check `if (pixel < N * H * W && co < Cout)`, a `RELU6(v)` macro over `fminf(fmaxf(...))`, `float sum = 0.0f` seeded by nothing and the bias added after the loop, plain `int` offsets.

#define RELU6(v) fminf(fmaxf((v), 0.0f), 6.0f)

/* @optiml
   sizes:   N=64 H=56 W=56 Cin=24 Cout=144   # x 18.4 MiB in, weight 13.5 KiB in, bias 576 B in, y 110.3 MiB out; 1.47 GFLOP
   check:   N=1 H=1 W=1 Cin=1 Cout=1; N=2 H=3 W=5 Cin=3 Cout=7; N=1 H=7 W=9 Cin=24 Cout=144; N=3 H=5 W=5 Cin=16 Cout=17; N=1 H=17 W=1 Cin=5 Cout=33; N=2 H=4 W=4 Cin=32 Cout=16
   x:       in  float[N*H*W*Cin] uniform(0,6)
   weight:  in  float[Cout*Cin] uniform(-0.5,0.5)
   bias:    in  float[Cout] uniform(-0.5,0.5)
   y:       out float[N*H*W*Cout]
   launch:  grid=(cdiv(Cout,16),cdiv(N*H*W,16)) block=(16,16)
   flops:   2*N*H*W*Cin*Cout + 3*N*H*W*Cout
   tol:     1e-5
*/
__global__ void conv1x1_relu6_nhwc(const float* x, const float* weight, const float* bias, float* y, int N, int H,
                                   int W, int Cin, int Cout)
{
    int co = blockIdx.x * blockDim.x + threadIdx.x;
    int pixel = blockIdx.y * blockDim.y + threadIdx.y;

    if (pixel < N * H * W && co < Cout) {
        float sum = 0.0f;
        for (int ci = 0; ci < Cin; ci++) {
            sum += x[pixel * Cin + ci] * weight[co * Cin + ci];
        }
        sum += bias[co];
        y[pixel * Cout + co] = RELU6(sum);
    }
}
