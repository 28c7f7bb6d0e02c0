// y[n][co][oh][ow] = scale[co] * relu(bias[co] + sum_ci sum_{kh, kw < 3} weight[co][ci][kh][kw] * x[n][ci][oh + kh][ow + kw]): `self.conv(x)` (nn.Conv2d(64, 128, 3), no padding, with its bias) followed by `torch.relu` and a multiply by a (Cout, 1, 1) parameter (KernelBench level 2's Conv2d + activation + per-channel multiplier family, as its Conv2D_ReLU_BiasAdd and Conv2d_Multiply_* models write it) on [32, 64, 128, 128] NCHW -> [32, 128, 126, 126] fp32; one thread per output on a 3-D grid of 16 x 16 blocks (ow on x, oh on y, blockIdx.z = n * Cout + co), the output extents computed in the kernel, a braced bounds if, #define KS, a pointer to the output channel's filters, `size_t` offsets.

#define KS 3

/* @optiml
   sizes:   N=32 Cin=64 Cout=128 H=128 W=128   # x 128 MiB in, y 248 MiB out, weight 288 KiB in; 74.9 GFLOP
   check:   N=1 Cin=1 Cout=1 H=3 W=3; N=2 Cin=3 Cout=4 H=5 W=7; N=1 Cin=2 Cout=3 H=19 W=40; N=1 Cin=5 Cout=2 H=3 W=130; N=3 Cin=1 Cout=5 H=20 W=4; N=1 Cin=16 Cout=7 H=34 W=17
   x:       in  float[N*Cin*H*W]
   weight:  in  float[Cout*Cin*9] uniform(-0.25,0.25)
   bias:    in  float[Cout]
   scale:   in  float[Cout] uniform(0.5,2)
   y:       out float[N*Cout*(H-2)*(W-2)]
   launch:  grid=(cdiv(W-2,16),cdiv(H-2,16),N*Cout) block=(16,16)
   flops:   2*N*Cout*Cin*9*(H-2)*(W-2) + 3*N*Cout*(H-2)*(W-2)
   tol:     1e-5
*/
__global__ void conv2d_relu_channel_scale(const float* x, const float* weight, const float* bias, const float* scale,
                                          float* y, int N, int Cin, int Cout, int H, int W)
{
    const int Ho = H - KS + 1;
    const int Wo = W - KS + 1;
    const int ow = blockIdx.x * blockDim.x + threadIdx.x;
    const int oh = blockIdx.y * blockDim.y + threadIdx.y;
    const int n = blockIdx.z / Cout;
    const int co = blockIdx.z % Cout;

    if (oh < Ho && ow < Wo) {
        const float* wc = weight + (size_t)co * Cin * KS * KS;
        float acc = bias[co];
        for (int ci = 0; ci < Cin; ++ci) {
            const float* plane = x + ((size_t)n * Cin + ci) * H * W;
            for (int kh = 0; kh < KS; ++kh)
                for (int kw = 0; kw < KS; ++kw)
                    acc += plane[(size_t)(oh + kh) * W + ow + kw] * wc[(ci * KS + kh) * KS + kw];
        }
        float r = acc > 0.0f ? acc : 0.0f;
        y[(((size_t)n * Cout + co) * Ho + oh) * Wo + ow] = r * scale[co];
    }
}
