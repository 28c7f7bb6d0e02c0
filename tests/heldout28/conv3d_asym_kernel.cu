// y[n][co][d][h][w] = sum_ci sum_kd<3,kh<5,kw<7 w[co][ci][kd][kh][kw] * x[n][ci][d+kd][h+kh][w+kw]: `nn.Conv3d(8, 32, kernel_size=(3, 5, 7), bias=False)` (KernelBench level 1's standard 3-D convolution with an asymmetric kernel; stride 1, no padding, so the output is (D-2) x (H-4) x (W-6)) on [2, 8, 16, 64, 64] NCDHW fp32; one thread per output on a 3-D grid of 32 x 8 blocks with blockIdx.z = (n * Cout + co) * Do + od, constexpr kernel extents, the whole body inside one bounds if, int64_t offsets.
#include <cstdint>

/* @optiml
   sizes:   N=2 Cin=8 Cout=32 D=16 H=64 W=64   # x 4 MiB in, y 11.9 MiB out, weight 105 KiB in; 5.2 GFLOP
   check:   N=1 Cin=1 Cout=1 D=3 H=5 W=7; N=2 Cin=3 Cout=2 D=4 H=6 W=9; N=1 Cin=2 Cout=3 D=5 H=5 W=40; N=1 Cin=1 Cout=5 D=3 H=14 W=8; N=3 Cin=2 Cout=1 D=6 H=7 W=7; N=1 Cin=4 Cout=2 D=3 H=13 W=10
   x:       in  float[N*Cin*D*H*W]
   weight:  in  float[Cout*Cin*105]
   y:       out float[N*Cout*(D-2)*(H-4)*(W-6)]
   launch:  grid=(cdiv(W-6,32),cdiv(H-4,8),N*Cout*(D-2)) block=(32,8)
   flops:   210*N*Cout*Cin*(D-2)*(H-4)*(W-6)
   tol:     1e-4
*/
__global__ void conv3d_asym_kernel(const float* x, const float* weight, float* y,
                                   int N, int Cin, int Cout, int D, int H, int W)
{
    constexpr int KD = 3, KH = 5, KW = 7;
    const int Do = D - KD + 1, Ho = H - KH + 1, Wo = W - KW + 1;

    int ow = blockIdx.x * blockDim.x + threadIdx.x;
    int oh = blockIdx.y * blockDim.y + threadIdx.y;
    int od = blockIdx.z % Do;
    int nco = blockIdx.z / Do;                  // n * Cout + co
    int co = nco % Cout;
    int n = nco / Cout;

    if (ow < Wo && oh < Ho) {
        float sum = 0.0f;
        for (int ci = 0; ci < Cin; ++ci) {
            int64_t base = (((int64_t)n * Cin + ci) * D + od) * H * W + (int64_t)oh * W + ow;
            const float* wk = weight + ((int64_t)co * Cin + ci) * (KD * KH * KW);
            for (int kd = 0; kd < KD; ++kd)
                for (int kh = 0; kh < KH; ++kh)
                    for (int kw = 0; kw < KW; ++kw)
                        sum += x[base + ((int64_t)kd * H + kh) * W + kw] * wk[(kd * KH + kh) * KW + kw];
        }
        y[(((int64_t)nco * Do + od) * Ho + oh) * Wo + ow] = sum;
    }
}
