// y[n][co][od][oh][ow] = sum_ci sum_{kd < 5, kh < 7, kw < 7} w[co][ci][kd][kh][kw] * x[n][ci][od - 2 + kd][2 oh - 3 + kh][2 ow - 3 + kw] (zero padding): the stem of SlowFast's fast pathway, `nn.Conv3d(3, 8, kernel_size=(5, 7, 7), stride=(1, 2, 2), padding=(2, 3, 3), bias=False)` (KernelBench level 1's 3-D convolution with an asymmetric kernel, here strided and padded) on a clip batch [2, 3, 32, 224, 224] NCDHW -> [2, 8, 32, 112, 112] fp32; one thread per output on a 1-D launch, the int64_t flat index decoded by % and / into (ow, oh, od, co, n), early return, a `__device__` bounds helper with `continue` per axis, a row pointer into the input and the filter per (ci, kd, kh), #define kernel extents, strides and paddings, the output extents computed in the kernel from PyTorch's formula.
#include <cstdint>

#define KD 5
#define KH 7
#define KW 7
#define SH 2
#define SW 2
#define PD 2
#define PH 3
#define PW 3

__device__ __forceinline__ bool inside(int i, int n) { return i >= 0 && i < n; }

/* @optiml
   sizes:   N=2 Cin=3 Cout=8 D=32 H=224 W=224   # x 36.8 MiB in, y 24.5 MiB out, weight 23 KiB in; 9.4 GFLOP
   check:   N=1 Cin=1 Cout=1 D=1 H=1 W=1; N=2 Cin=3 Cout=2 D=3 H=5 W=8; N=1 Cin=2 Cout=3 D=6 H=4 W=33; N=1 Cin=3 Cout=8 D=2 H=9 W=3; N=3 Cin=1 Cout=2 D=1 H=2 W=17; N=1 Cin=1 Cout=4 D=7 H=11 W=6
   x:       in  float[N*Cin*D*H*W]
   weight:  in  float[Cout*Cin*245]
   y:       out float[N*Cout*D*((H-1)//2+1)*((W-1)//2+1)]
   launch:  grid=cdiv(N*Cout*D*((H-1)//2+1)*((W-1)//2+1),256) block=256
   flops:   490*N*Cout*Cin*D*((H-1)//2+1)*((W-1)//2+1)
   tol:     1e-4
*/
__global__ void conv3d_slowfast_stem(const float* x, const float* weight, float* y,
                                     int N, int Cin, int Cout, int D, int H, int W)
{
    const int Do = D + 2 * PD - KD + 1;
    const int Ho = (H + 2 * PH - KH) / SH + 1;
    const int Wo = (W + 2 * PW - KW) / SW + 1;
    const int64_t total = (int64_t)N * Cout * Do * Ho * Wo;
    int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;

    int ow = idx % Wo;
    int oh = (idx / Wo) % Ho;
    int od = (idx / ((int64_t)Wo * Ho)) % Do;
    int co = (idx / ((int64_t)Wo * Ho * Do)) % Cout;
    int n = idx / ((int64_t)Wo * Ho * Do * Cout);

    float acc = 0.0f;
    for (int ci = 0; ci < Cin; ++ci) {
        for (int kd = 0; kd < KD; ++kd) {
            int id = od - PD + kd;
            if (!inside(id, D)) continue;
            for (int kh = 0; kh < KH; ++kh) {
                int ih = oh * SH - PH + kh;
                if (!inside(ih, H)) continue;
                const float* xr = x + ((((int64_t)n * Cin + ci) * D + id) * H + ih) * W;
                const float* wr = weight + (((int64_t)co * Cin + ci) * KD + kd) * KH * KW + kh * KW;
                for (int kw = 0; kw < KW; ++kw) {
                    int iw = ow * SW - PW + kw;
                    if (!inside(iw, W)) continue;
                    acc += xr[iw] * wr[kw];
                }
            }
        }
    }
    y[idx] = acc;
}
