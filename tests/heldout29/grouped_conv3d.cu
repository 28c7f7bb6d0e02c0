// y[n][co][d][h][w] = b[co] + sum over the Cin/G input channels ci of co's group and kd,kh,kw < 3 of w[co][ci % (Cin/G)][kd][kh][kw] * x[n][ci][d+kd-1][h+kh-1][w+kw-1] (zero padding 1): a grouped 3-D convolution, `nn.Conv3d(32, 64, kernel_size=3, padding=1, groups=4)` with bias (KernelBench level 1's 3-D convolution family, grouped as in a ResNeXt-3D video block) on [2, 32, 16, 56, 56] NCDHW fp32; one thread per output on a 3-D grid of 16 x 16 blocks with blockIdx.z = (n * Cout + co) * D + d, #define K and PAD, early return, `continue` per axis on taps outside the volume, int64_t offsets.
#include <cstdint>

#define K 3
#define PAD 1

/* @optiml
   sizes:   N=2 Cin=32 Cout=64 G=4 D=16 H=56 W=56   # x 12.3 MiB in, y 24.5 MiB out, weight 54 KiB in; 2.8 GFLOP
   check:   N=1 Cin=1 Cout=1 G=1 D=1 H=1 W=1; N=2 Cin=4 Cout=6 G=2 D=3 H=5 W=7; N=1 Cin=6 Cout=3 G=3 D=2 H=17 W=18; N=1 Cin=3 Cout=3 G=3 D=4 H=2 W=1; N=3 Cin=2 Cout=4 G=1 D=1 H=3 W=33; N=1 Cin=8 Cout=4 G=4 D=5 H=4 W=3
   x:       in  float[N*Cin*D*H*W]
   weight:  in  float[Cout*(Cin//G)*27]
   bias:    in  float[Cout]
   y:       out float[N*Cout*D*H*W]
   launch:  grid=(cdiv(W,16),cdiv(H,16),N*Cout*D) block=(16,16)
   flops:   54*N*Cout*(Cin//G)*D*H*W
   tol:     1e-4
*/
__global__ void grouped_conv3d(const float* x, const float* weight, const float* bias, float* y,
                               int N, int Cin, int Cout, int G, int D, int H, int W)
{
    int w = blockIdx.x * blockDim.x + threadIdx.x;
    int h = blockIdx.y * blockDim.y + threadIdx.y;
    int d = blockIdx.z % D;
    int nco = blockIdx.z / D;
    int co = nco % Cout;
    int n = nco / Cout;
    if (w >= W || h >= H)
        return;

    int cin_g = Cin / G;
    int cout_g = Cout / G;
    int ci0 = (co / cout_g) * cin_g;

    float acc = bias[co];
    for (int c = 0; c < cin_g; ++c) {
        const float* xc = x + ((int64_t)n * Cin + ci0 + c) * D * H * W;
        const float* wc = weight + ((int64_t)co * cin_g + c) * (K * K * K);
        for (int kd = 0; kd < K; ++kd) {
            int id = d + kd - PAD;
            if (id < 0 || id >= D) continue;
            for (int kh = 0; kh < K; ++kh) {
                int ih = h + kh - PAD;
                if (ih < 0 || ih >= H) continue;
                for (int kw = 0; kw < K; ++kw) {
                    int iw = w + kw - PAD;
                    if (iw < 0 || iw >= W) continue;
                    acc += xc[((int64_t)id * H + ih) * W + iw] * wc[(kd * K + kh) * K + kw];
                }
            }
        }
    }
    y[(((int64_t)nco * D + d) * H + h) * W + w] = acc;
}
