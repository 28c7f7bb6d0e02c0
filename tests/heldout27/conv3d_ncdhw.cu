// y[n][co][d][h][w] = b[co] + sum_ci sum_kd,kh,kw w[co][ci][kd][kh][kw] * x[n][ci][d+kd-1][h+kh-1][w+kw-1] (zero outside the volume): `nn.Conv3d(32, 64, 3, padding=1)` with bias (KernelBench level 1's standard 3-D convolution with a square kernel) on [2, 32, 32, 32, 32] NCDHW fp32; one thread per output on a 1-D launch, the long flat index split by / and % into (n, co, d, h, w), #define KS 3 and PAD 1, every tap tested against the volume's edges with `continue`.
#define KS 3
#define PAD 1

/* @optiml
   sizes:   N=2 Cin=32 Cout=64 D=32 H=32 W=32   # x 8 MiB in, y 16 MiB out, weight 216 KiB in; 7.2 GFLOP
   check:   N=1 Cin=1 Cout=1 D=1 H=1 W=1; N=2 Cin=3 Cout=5 D=4 H=5 W=6; N=1 Cin=2 Cout=3 D=7 H=3 W=9; N=1 Cin=4 Cout=2 D=2 H=9 W=17; N=3 Cin=1 Cout=4 D=5 H=5 W=1; N=1 Cin=5 Cout=7 D=3 H=11 W=8
   x:       in  float[N*Cin*D*H*W]
   weight:  in  float[Cout*Cin*27]
   bias:    in  float[Cout]
   y:       out float[N*Cout*D*H*W]
   launch:  grid=cdiv(N*Cout*D*H*W,256) block=256
   flops:   54*N*Cout*Cin*D*H*W
   tol:     1e-4
*/
__global__ void conv3d_ncdhw(const float* x, const float* weight, const float* bias, float* y,
                             int N, int Cin, int Cout, int D, int H, int W)
{
    long idx = (long)blockIdx.x * blockDim.x + threadIdx.x;
    long total = (long)N * Cout * D * H * W;
    if (idx >= total)
        return;

    int w = idx % W;
    int h = (idx / W) % H;
    int d = (idx / ((long)W * H)) % D;
    int co = (idx / ((long)W * H * D)) % Cout;
    int n = idx / ((long)W * H * D * Cout);

    float sum = bias[co];
    for (int ci = 0; ci < Cin; ci++) {
        for (int kd = 0; kd < KS; kd++) {
            int id = d + kd - PAD;
            if (id < 0 || id >= D)
                continue;
            for (int kh = 0; kh < KS; kh++) {
                int ih = h + kh - PAD;
                if (ih < 0 || ih >= H)
                    continue;
                for (int kw = 0; kw < KS; kw++) {
                    int iw = w + kw - PAD;
                    if (iw < 0 || iw >= W)
                        continue;
                    long xi = (((long)(n * Cin + ci) * D + id) * H + ih) * W + iw;
                    int wi = (((co * Cin + ci) * KS + kd) * KS + kh) * KS + kw;
                    sum += x[xi] * weight[wi];
                }
            }
        }
    }
    y[idx] = sum;
}
