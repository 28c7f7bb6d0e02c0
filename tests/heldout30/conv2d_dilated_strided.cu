// y[n][co][oh][ow] = sum_ci sum_{kh < 3, kw < 5} w[co][ci][kh][kw] * x[n][ci][2 oh - 2 + 2 kh][3 ow - 4 + 2 kw] (zero padding): a dilated, strided 2-D convolution with an asymmetric kernel, stride and padding, `nn.Conv2d(32, 64, kernel_size=(3, 5), stride=(2, 3), padding=(2, 4), dilation=(2, 2), bias=False)` (KernelBench level 1's "asymmetric input, asymmetric kernel, dilated, padded, strided" 2-D convolution family) on [8, 32, 128, 192] NCHW -> [8, 64, 64, 64] fp32; one thread per output on a 3-D grid of (32, 4) blocks (ow on x, oh on y, blockIdx.z = n * Cout + co), the kernel extent #defined but stride, padding and dilation passed as int arguments with their own contract lines, the output extents computed in the kernel from PyTorch's formula, braced bounds ifs around the taps, __restrict__ on every pointer.
#define KH 3
#define KW 5

/* @optiml
   sizes:   N=8 Cin=32 Cout=64 H=128 W=192   # x 24 MiB in, y 8 MiB out, weight 120 KiB in; 2.0 GFLOP
   check:   N=1 Cin=1 Cout=1 H=1 W=1; N=2 Cin=3 Cout=4 H=5 W=7; N=1 Cin=2 Cout=3 H=9 W=100; N=1 Cin=4 Cout=2 H=2 W=2; N=3 Cin=1 Cout=5 H=10 W=3; N=1 Cin=5 Cout=1 H=17 W=13
   x:         in  float[N*Cin*H*W]
   weight:    in  float[Cout*Cin*15]
   y:         out float[N*Cout*((H-1)//2+1)*((W-1)//3+1)]
   stride_h:  2
   stride_w:  3
   pad_h:     2
   pad_w:     4
   dil_h:     2
   dil_w:     2
   launch:    grid=(cdiv((W-1)//3+1,32),cdiv((H-1)//2+1,4),N*Cout) block=(32,4)
   flops:     30*N*Cout*Cin*((H-1)//2+1)*((W-1)//3+1)
   tol:       1e-4
*/
__global__ void conv2d_dilated_strided(const float* __restrict__ x, const float* __restrict__ weight,
                                       float* __restrict__ y, int N, int Cin, int Cout, int H, int W,
                                       int stride_h, int stride_w, int pad_h, int pad_w, int dil_h, int dil_w)
{
    const int Ho = (H + 2 * pad_h - dil_h * (KH - 1) - 1) / stride_h + 1;
    const int Wo = (W + 2 * pad_w - dil_w * (KW - 1) - 1) / stride_w + 1;
    const int ow = blockIdx.x * blockDim.x + threadIdx.x;
    const int oh = blockIdx.y * blockDim.y + threadIdx.y;
    const int co = blockIdx.z % Cout;
    const int n = blockIdx.z / Cout;

    if (ow < Wo && oh < Ho) {
        float acc = 0.0f;
        for (int ci = 0; ci < Cin; ++ci) {
            for (int kh = 0; kh < KH; ++kh) {
                const int ih = oh * stride_h - pad_h + kh * dil_h;
                if (ih >= 0 && ih < H) {
                    for (int kw = 0; kw < KW; ++kw) {
                        const int iw = ow * stride_w - pad_w + kw * dil_w;
                        if (iw >= 0 && iw < W) {
                            acc += x[(((size_t)n * Cin + ci) * H + ih) * W + iw]
                                 * weight[(((size_t)co * Cin + ci) * KH + kh) * KW + kw];
                        }
                    }
                }
            }
        }
        y[(((size_t)n * Cout + co) * Ho + oh) * Wo + ow] = acc;
    }
}
