// y[n][co][p] = bias[co] + sum over ci of weight[co][ci] * x[n][ci][p]: a 1x1 convolution (nn.Conv2d(Cin, Cout, kernel_size=1)) over N x Cin x H x W, i.e. a channel contraction at every pixel, one thread per output element.
/* @optiml
   sizes:    N=16 Cin=256 Cout=256 H=64 W=64   # 2^24 floats: 64 MiB in, 64 MiB out, 256 KiB of weights
   check:    N=1 Cin=1 Cout=1 H=1 W=1; N=2 Cin=3 Cout=5 H=7 W=9; N=1 Cin=64 Cout=3 H=17 W=33; N=3 Cin=2 Cout=130 H=1 W=300
   template: scalar_t=float
   x:        in  scalar_t[N*Cin*H*W]
   weight:   in  scalar_t[Cout*Cin]
   bias:     in  scalar_t[Cout]
   y:        out scalar_t[N*Cout*H*W]
   launch:   grid=(cdiv(H*W,256),Cout,N) block=256
   flops:    2*N*Cout*Cin*H*W
   tol:      1e-4
*/
template <typename scalar_t>
__global__ void pointwise_conv2d(const scalar_t* x, const scalar_t* weight, const scalar_t* bias, scalar_t* y,
                                 int N, int Cin, int Cout, int H, int W)
{
    const int HW = H * W;
    const int p = blockIdx.x * blockDim.x + threadIdx.x;   // pixel
    const int co = blockIdx.y;                              // output channel
    const int n = blockIdx.z;                               // image
    if (p >= HW)
        return;
    const scalar_t* x_n = x + (size_t)n * Cin * HW;
    scalar_t acc = bias[co];
    for (int ci = 0; ci < Cin; ++ci)
        acc += weight[co * Cin + ci] * x_n[(size_t)ci * HW + p];
    y[((size_t)n * Cout + co) * HW + p] = acc;
}

template __global__ void pointwise_conv2d<float>(const float*, const float*, const float*, float*,
                                                 int, int, int, int, int);
