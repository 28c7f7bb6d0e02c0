// y[n][co][od][oh][ow] = sum over ci and the taps (kd, kh, kw) < (3, 4, 4) with od = id - 1 + kd, oh = 2 ih - 1 + kh, ow = 2 iw - 1 + kw of x[n][ci][id][ih][iw] * w[ci][co][kd][kh][kw]: a video decoder's spatial-only 2x up-sampling, `nn.ConvTranspose3d(64, 32, kernel_size=(3, 4, 4), stride=(1, 2, 2), padding=(1, 1, 1), bias=False)` (KernelBench level 1's strided 3-D transposed convolution, here with an asymmetric kernel and stride), [2, 64, 8, 32, 32] -> [2, 32, 8, 64, 64] NCDHW fp32; one thread per output on a 3-D grid of 16 x 16 blocks (ow on x, oh on y, blockIdx.z = (n * Cout + co) * D + od), local `const int` kernel, stride and padding, the whole body in one braced bounds if, the height and width taps walked from the output's phase (kh = (oh + 1) % 2, kh += 2), every depth tap tested, size_t offsets, __restrict__ on the inputs.

/* @optiml
   sizes:   N=2 Cin=64 Cout=32 D=8 H=32 W=32   # x 4 MiB in, y 8 MiB out, weight 384 KiB in; 3.2 GFLOP (scatter count)
   check:   N=1 Cin=1 Cout=1 D=1 H=1 W=1; N=2 Cin=3 Cout=2 D=3 H=5 W=9; N=1 Cin=2 Cout=5 D=2 H=1 W=17; N=1 Cin=4 Cout=3 D=5 H=2 W=3; N=2 Cin=1 Cout=4 D=1 H=9 W=1; N=1 Cin=5 Cout=1 D=4 H=3 W=2
   x:       in  float[N*Cin*D*H*W]
   weight:  in  float[Cin*Cout*48]
   y:       out float[N*Cout*D*(2*H)*(2*W)]
   launch:  grid=(cdiv(2*W,16),cdiv(2*H,16),N*Cout*D) block=(16,16)
   flops:   96*N*Cin*Cout*D*H*W
   tol:     1e-4
*/
__global__ void conv_transpose3d_spatial_up(const float* __restrict__ x, const float* __restrict__ weight, float* y,
                                            int N, int Cin, int Cout, int D, int H, int W)
{
    const int KD = 3, KH = 4, KW = 4;
    const int SH = 2, SW = 2;                       // stride 1 in depth
    const int PD = 1, PH = 1, PW = 1;
    const int Dout = (D - 1) - 2 * PD + KD;
    const int Hout = (H - 1) * SH - 2 * PH + KH;
    const int Wout = (W - 1) * SW - 2 * PW + KW;

    int ow = blockIdx.x * blockDim.x + threadIdx.x;
    int oh = blockIdx.y * blockDim.y + threadIdx.y;
    int od = blockIdx.z % Dout;
    int co = (blockIdx.z / Dout) % Cout;
    int n = blockIdx.z / Dout / Cout;

    if (ow < Wout && oh < Hout) {
        float sum = 0.0f;
        for (int ci = 0; ci < Cin; ci++) {
            const float* xv = x + ((size_t)n * Cin + ci) * D * H * W;
            const float* wk = weight + ((size_t)ci * Cout + co) * (KD * KH * KW);
            for (int kd = 0; kd < KD; kd++) {
                int id = od + PD - kd;
                if (id < 0 || id >= D) continue;
                for (int kh = (oh + PH) % SH; kh < KH; kh += SH) {
                    int ih = (oh + PH - kh) / SH;
                    if (ih < 0 || ih >= H) continue;
                    for (int kw = (ow + PW) % SW; kw < KW; kw += SW) {
                        int iw = (ow + PW - kw) / SW;
                        if (iw < 0 || iw >= W) continue;
                        sum += xv[((size_t)id * H + ih) * W + iw] * wk[(kd * KH + kh) * KW + kw];
                    }
                }
            }
        }
        y[(((size_t)blockIdx.z) * Hout + oh) * Wout + ow] = sum;
    }
}
