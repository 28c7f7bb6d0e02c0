// y[n][co][oh][ow] = b[co] + sum over the Cin/G input channels ci of co's group and (kh, kw) with oh = 3 ih - 1 + 2 kh, ow = 2 iw - 2 + kw of x[n][ci][ih][iw] * w[ci][co % (Cout/G)][kh][kw]: `nn.ConvTranspose2d(128, 128, kernel_size=(3, 5), stride=(3, 2), padding=(1, 2), dilation=(2, 1), groups=4)` with bias (KernelBench level 1's asymmetric, strided, grouped, padded and dilated transposed 2-D convolution, with the strides chosen so that every output row has a tap) from [4, 128, 64, 96] to [4, 128, 192, 191] NCHW fp32; gather form, one thread per output on a 3-D grid of 32 x 4 blocks (blockIdx.z = n * Cout + co), #define pairs for the kernel, stride, padding and dilation, a tap skipped by one combined `continue` test (negative, off the stride, or past the input), the weight in PyTorch's [Cin][Cout/G][3][5] layout.
#define KH 3
#define KW 5
#define STRIDE_H 3
#define STRIDE_W 2
#define PAD_H 1
#define PAD_W 2
#define DIL_H 2
#define DIL_W 1

/* @optiml
   sizes:   N=4 Cin=128 Cout=128 G=4 H=64 W=96   # x 12 MiB in, y 71.6 MiB out, weight 240 KiB in; 3.0 GFLOP (scatter count)
   check:   N=1 Cin=1 Cout=1 G=1 H=1 W=1; N=2 Cin=4 Cout=6 G=2 H=3 W=5; N=1 Cin=6 Cout=3 G=3 H=2 W=17; N=1 Cin=3 Cout=3 G=3 H=4 W=1; N=3 Cin=2 Cout=4 G=1 H=1 W=4; N=1 Cin=8 Cout=4 G=4 H=5 W=3
   x:       in  float[N*Cin*H*W]
   weight:  in  float[Cin*(Cout//G)*15]
   bias:    in  float[Cout]
   y:       out float[N*Cout*(3*H)*(2*W-1)]
   launch:  grid=(cdiv(2*W-1,32),cdiv(3*H,4),N*Cout) block=(32,4)
   flops:   30*N*Cin*Cout*H*W/G
   tol:     1e-4
*/
__global__ void conv_transpose2d_grouped(const float* __restrict__ x, const float* __restrict__ weight,
                                         const float* __restrict__ bias, float* __restrict__ y,
                                         int N, int Cin, int Cout, int G, int H, int W)
{
    int Hout = (H - 1) * STRIDE_H - 2 * PAD_H + DIL_H * (KH - 1) + 1;
    int Wout = (W - 1) * STRIDE_W - 2 * PAD_W + DIL_W * (KW - 1) + 1;
    int ow = blockIdx.x * blockDim.x + threadIdx.x;
    int oh = blockIdx.y * blockDim.y + threadIdx.y;
    int n = blockIdx.z / Cout;
    int co = blockIdx.z % Cout;
    if (ow >= Wout || oh >= Hout) return;

    int cin_g = Cin / G, cout_g = Cout / G;
    int g = co / cout_g;
    int cog = co % cout_g;

    float acc = bias[co];
    for (int kh = 0; kh < KH; kh++) {
        int th = oh + PAD_H - kh * DIL_H;
        if (th < 0 || th % STRIDE_H != 0 || th / STRIDE_H >= H) continue;
        int ih = th / STRIDE_H;
        for (int kw = 0; kw < KW; kw++) {
            int tw = ow + PAD_W - kw * DIL_W;
            if (tw < 0 || tw % STRIDE_W != 0 || tw / STRIDE_W >= W) continue;
            int iw = tw / STRIDE_W;
            for (int c = 0; c < cin_g; c++) {
                int ci = g * cin_g + c;
                acc += x[(((size_t)n * Cin + ci) * H + ih) * W + iw]
                     * weight[(((size_t)ci * cout_g + cog) * KH + kh) * KW + kw];
            }
        }
    }
    y[(((size_t)n * Cout + co) * Hout + oh) * Wout + ow] = acc;
}
