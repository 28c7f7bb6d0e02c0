// y[p][od][oh][ow] = mean of x[p][od + i][2 oh - 1 + j][2 ow - 1 + k] over i < 2, j, k < 3 inside the volume (the padding not counted): `nn.AvgPool3d(kernel_size=(2, 3, 3), stride=(1, 2, 2), padding=(0, 1, 1), count_include_pad=False)` (KernelBench level 1's 3-D average pooling, here asymmetric and with the padded taps left out of the divisor) on a video clip batch [4, 64, 16, 112, 112] NCDHW fp32; a size_t grid-stride loop over the outputs capped at 4096 blocks of 256, the index decoded by / and %, #define kernel, stride and padding per axis, window bounds clamped with max / min and the divisor counted from the clamped window.
#define KD 2
#define KH 3
#define KW 3
#define SD 1
#define SH 2
#define SW 2
#define PD 0
#define PH 1
#define PW 1

/* @optiml
   sizes:   P=256 D=16 H=112 W=112   # N=4, C=64; x 196 MiB in, y 46 MiB out; 0.2 GFLOP
   check:   P=1 D=2 H=3 W=3; P=2 D=3 H=5 W=7; P=1 D=2 H=17 W=3; P=3 D=5 H=4 W=33; P=1 D=9 H=3 W=4; P=5 D=2 H=9 W=10; P=7 D=3 H=6 W=5
   x:       in  float[P*D*H*W]
   y:       out float[P*(D-1)*((H-1)//2+1)*((W-1)//2+1)]
   launch:  grid=min(cdiv(P*(D-1)*((H-1)//2+1)*((W-1)//2+1),256),4096) block=256
   flops:   18*P*(D-1)*((H-1)//2+1)*((W-1)//2+1)
   tol:     1e-5
*/
__global__ void avgpool3d_exclude_pad(const float* x, float* y, int P, int D, int H, int W)
{
    const int Do = (D + 2 * PD - KD) / SD + 1;
    const int Ho = (H + 2 * PH - KH) / SH + 1;
    const int Wo = (W + 2 * PW - KW) / SW + 1;
    const size_t total = (size_t)P * Do * Ho * Wo;

    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += (size_t)gridDim.x * blockDim.x) {
        int ow = i % Wo;
        int oh = (i / Wo) % Ho;
        int od = (i / ((size_t)Wo * Ho)) % Do;
        size_t p = i / ((size_t)Wo * Ho * Do);

        int d0 = max(od * SD - PD, 0), d1 = min(od * SD - PD + KD, D);
        int h0 = max(oh * SH - PH, 0), h1 = min(oh * SH - PH + KH, H);
        int w0 = max(ow * SW - PW, 0), w1 = min(ow * SW - PW + KW, W);

        const float* vol = x + p * D * H * W;
        float sum = 0.0f;
        for (int d = d0; d < d1; ++d)
            for (int h = h0; h < h1; ++h)
                for (int w = w0; w < w1; ++w)
                    sum += vol[((size_t)d * H + h) * W + w];
        int count = (d1 - d0) * (h1 - h0) * (w1 - w0);
        y[i] = sum / count;
    }
}
