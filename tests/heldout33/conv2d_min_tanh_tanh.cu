// y[n][0][oh][ow] = tanh(tanh(min_co (bias[co] + sum_ci sum_{kh, kw < 3} weight[co][ci][kh][kw] * x[n][ci][oh + kh][ow + kw]))): KernelBench level 2's Conv2d_Min_Tanh_Tanh (`x = self.conv(x); x = torch.min(x, dim=1, keepdim=True)[0]; x = torch.tanh(x); x = torch.tanh(x)`) with nn.Conv2d(16, 64, 3) (no padding, bias) on [64, 16, 128, 128] NCHW -> [64, 1, 126, 126] fp32; one thread per output pixel on a 3-D grid of 16 x 16 blocks laid out the unusual way round (the output row on x, the column on y, the image on z), a braced bounds if, function-like `X_AT` / `W_AT` macros for the NCHW and OIHW indexing, `#pragma unroll` over the constant 3 x 3 taps, the min over the output channels seeded with FLT_MAX (<cfloat>) and kept by `fminf`, the output extents `const int`s computed in the kernel.
#include <cfloat>

#define KS 3
#define X_AT(n, c, h, w) x[(((size_t)(n) * Cin + (c)) * H + (h)) * W + (w)]
#define W_AT(o, c, kh, kw) weight[(((o) * Cin + (c)) * KS + (kh)) * KS + (kw)]

/* @optiml
   sizes:   N=64 Cin=16 Cout=64 H=128 W=128   # x 64 MiB in, weight 36 KiB in, y 3.9 MiB out; 18.9 GFLOP
   check:   N=1 Cin=1 Cout=1 H=3 W=3; N=2 Cin=3 Cout=5 H=7 W=5; N=1 Cin=2 Cout=7 H=19 W=40; N=1 Cin=4 Cout=3 H=130 W=3; N=3 Cin=1 Cout=2 H=20 W=17; N=1 Cin=16 Cout=64 H=18 W=34
   x:       in  float[N*Cin*H*W]
   weight:  in  float[Cout*Cin*9] uniform(-0.1,0.1)
   bias:    in  float[Cout] uniform(-0.1,0.1)
   y:       out float[N*(H-2)*(W-2)]
   launch:  grid=(cdiv(H-2,16),cdiv(W-2,16),N) block=(16,16)
   flops:   2*N*Cout*(H-2)*(W-2)*Cin*9 + 3*N*Cout*(H-2)*(W-2)
   tol:     1e-5
*/
__global__ void conv2d_min_tanh_tanh(const float* x, const float* weight, const float* bias, float* y,
                                     int N, int Cin, int Cout, int H, int W)
{
    const int Ho = H - KS + 1;
    const int Wo = W - KS + 1;
    const int oh = blockIdx.x * blockDim.x + threadIdx.x;
    const int ow = blockIdx.y * blockDim.y + threadIdx.y;
    const int n = blockIdx.z;

    if (oh < Ho && ow < Wo) {
        float m = FLT_MAX;
        for (int co = 0; co < Cout; ++co) {
            float acc = bias[co];
            for (int ci = 0; ci < Cin; ++ci) {
#pragma unroll
                for (int kh = 0; kh < KS; ++kh) {
#pragma unroll
                    for (int kw = 0; kw < KS; ++kw)
                        acc += X_AT(n, ci, oh + kh, ow + kw) * W_AT(co, ci, kh, kw);
                }
            }
            m = fminf(m, acc);
        }
        y[((size_t)n * Ho + oh) * Wo + ow] = tanhf(tanhf(m));
    }
}
