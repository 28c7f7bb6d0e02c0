// y[n][co][od][oh][ow] = b[co] + sum_ci sum over (kd, kh, kw) and (id, ih, iw) with od = 2 id - 1 + kd, oh = 2 ih - 1 + kh, ow = 2 iw - 1 + kw of x[n][ci][id][ih][iw] * w[ci][co][kd][kh][kw]: `nn.ConvTranspose3d(32, 16, kernel_size=4, stride=2, padding=1)` with bias (the 2x up-sampling layer of a 3-D decoder or volumetric GAN; KernelBench level 1's strided transposed 3-D convolution family) from [4, 32, 32, 32, 32] to [4, 16, 64, 64, 64] NCDHW fp32; gather form, one thread per output on a 1-D launch with a size_t flat index, a __device__ helper listing the (at most two) input positions and kernel taps that reach an output coordinate along one axis, the weight in PyTorch's [Cin][Cout][4][4][4] layout.
#define KS 4
#define STRIDE 2
#define PAD 1
#define MAX_TAPS (KS / STRIDE)

// the input positions i (and kernel taps k) with o = i * STRIDE - PAD + k, 0 <= i < n_in; returns how many
__device__ int contributing_taps(int o, int n_in, int* in_pos, int* tap)
{
    int count = 0;
    int t = o + PAD;
    for (int k = t % STRIDE; k < KS; k += STRIDE) {
        int i = (t - k) / STRIDE;
        if (i >= 0 && i < n_in) {
            in_pos[count] = i;
            tap[count] = k;
            count++;
        }
    }
    return count;
}

/* @optiml
   sizes:   N=4 Cin=32 Cout=16 D=32 H=32 W=32   # x 16 MiB in, y 64 MiB out, weight 128 KiB in; 8.6 GFLOP (scatter count)
   check:   N=1 Cin=1 Cout=1 D=1 H=1 W=1; N=2 Cin=3 Cout=2 D=2 H=3 W=4; N=1 Cin=2 Cout=3 D=1 H=5 W=9; N=1 Cin=4 Cout=1 D=3 H=2 W=17; N=3 Cin=1 Cout=2 D=2 H=2 W=1; N=1 Cin=2 Cout=5 D=4 H=4 W=3
   x:       in  float[N*Cin*D*H*W]
   weight:  in  float[Cin*Cout*64]
   bias:    in  float[Cout]
   y:       out float[N*Cout*(2*D)*(2*H)*(2*W)]
   launch:  grid=cdiv(N*Cout*8*D*H*W,256) block=256
   flops:   128*N*Cin*Cout*D*H*W
   tol:     1e-4
*/
__global__ void conv_transpose3d_k4s2(const float* x, const float* weight, const float* bias, float* y,
                                      int N, int Cin, int Cout, int D, int H, int W)
{
    const int Do = (D - 1) * STRIDE - 2 * PAD + KS;     // 2 D
    const int Ho = (H - 1) * STRIDE - 2 * PAD + KS;
    const int Wo = (W - 1) * STRIDE - 2 * PAD + KS;
    size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t total = (size_t)N * Cout * Do * Ho * Wo;
    if (idx >= total)
        return;

    int ow = idx % Wo;
    int oh = (idx / Wo) % Ho;
    int od = (idx / ((size_t)Wo * Ho)) % Do;
    int co = (idx / ((size_t)Wo * Ho * Do)) % Cout;
    int n = idx / ((size_t)Wo * Ho * Do * Cout);

    int id[MAX_TAPS], kd[MAX_TAPS];
    int ih[MAX_TAPS], kh[MAX_TAPS];
    int iw[MAX_TAPS], kw[MAX_TAPS];
    int nd = contributing_taps(od, D, id, kd);
    int nh = contributing_taps(oh, H, ih, kh);
    int nw = contributing_taps(ow, W, iw, kw);

    float acc = bias[co];
    for (int ci = 0; ci < Cin; ci++) {
        const float* xc = x + ((size_t)n * Cin + ci) * D * H * W;
        const float* wc = weight + ((size_t)ci * Cout + co) * KS * KS * KS;
        for (int a = 0; a < nd; a++)
            for (int b = 0; b < nh; b++)
                for (int c = 0; c < nw; c++)
                    acc += xc[((size_t)id[a] * H + ih[b]) * W + iw[c]] * wc[(kd[a] * KS + kh[b]) * KS + kw[c]];
    }
    y[idx] = acc;
}
