// y[n][co][oh][ow] = sum_ci w[co][ci] * x[n][ci][2 oh][2 ow]: the projection shortcut of a ResNet-50 bottleneck, `nn.Conv2d(256, 512, kernel_size=1, stride=2, bias=False)` (KernelBench level 1's pointwise convolution, here strided), [16, 256, 56, 56] -> [16, 512, 28, 28] NCHW fp32; one thread per output on a 3-D grid (pixels of the output plane on x, blockIdx.y = co, blockIdx.z = n), early return, a local `const int stride = 2`, a row pointer into the weight, the input read with a stride of one plane per channel.

/* @optiml
   sizes:   N=16 Cin=256 Cout=512 H=56 W=56   # x 49 MiB in, y 24.5 MiB out, weight 512 KiB in; 3.3 GFLOP
   check:   N=1 Cin=1 Cout=1 H=1 W=1; N=2 Cin=3 Cout=5 H=4 W=7; N=1 Cin=7 Cout=2 H=9 W=1; N=1 Cin=4 Cout=3 H=33 W=34; N=3 Cin=2 Cout=1 H=2 W=2; N=1 Cin=33 Cout=4 H=5 W=5
   x:       in  float[N*Cin*H*W]
   weight:  in  float[Cout*Cin]
   y:       out float[N*Cout*((H+1)//2)*((W+1)//2)]
   launch:  grid=(cdiv(((H+1)//2)*((W+1)//2),256),Cout,N) block=256
   flops:   2*N*Cout*Cin*((H+1)//2)*((W+1)//2)
   tol:     1e-4
*/
__global__ void conv1x1_stride2(const float* x, const float* weight, float* y,
                                int N, int Cin, int Cout, int H, int W)
{
    const int stride = 2;
    const int Ho = (H - 1) / stride + 1;
    const int Wo = (W - 1) / stride + 1;
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    int co = blockIdx.y;
    int n = blockIdx.z;
    if (p >= Ho * Wo)
        return;
    int oh = p / Wo, ow = p % Wo;

    const float* wrow = weight + co * Cin;
    const float* xs = x + (size_t)n * Cin * H * W + (oh * stride) * W + ow * stride;
    float acc = 0.0f;
    for (int ci = 0; ci < Cin; ++ci)
        acc += wrow[ci] * xs[(size_t)ci * H * W];
    y[(((size_t)n * Cout + co) * Ho + oh) * Wo + ow] = acc;
}
