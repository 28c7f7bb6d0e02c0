// y[n][co][h][w] = b[co] + sum_kh,kw w[co][kh][kw] * x[n][co / mult][h+kh-2][w+kw-1] (zero padding (2, 1)): a depthwise 2-D convolution with a channel multiplier and an asymmetric 5 x 3 kernel, `nn.Conv2d(C, C * mult, kernel_size=(5, 3), padding=(2, 1), groups=C)` with bias (KernelBench level 1's depthwise family), C = 64, mult = 2, on [8, 64, 128, 128] NCHW fp32; one thread per output on a 1-D launch, the int flat index split by / and % into (n, co, h, w), #define KH 5 and KW 3 with the padding derived from them, `continue` on rows and columns outside the plane, __restrict__ on every pointer.
#define KH 5
#define KW 3
#define PH (KH / 2)
#define PW (KW / 2)

/* @optiml
   sizes:   N=8 C=64 mult=2 H=128 W=128   # x 32 MiB in, y 64 MiB out, weight 7.5 KiB in; 0.5 GFLOP
   check:   N=1 C=1 mult=1 H=1 W=1; N=2 C=3 mult=2 H=4 W=7; N=1 C=2 mult=3 H=9 W=1; N=1 C=5 mult=1 H=13 W=10; N=3 C=1 mult=4 H=2 W=3; N=1 C=4 mult=2 H=6 W=33
   x:       in  float[N*C*H*W]
   weight:  in  float[C*mult*15]
   bias:    in  float[C*mult]
   y:       out float[N*C*mult*H*W]
   launch:  grid=cdiv(N*C*mult*H*W,256) block=256
   flops:   30*N*C*mult*H*W
   tol:     1e-5
*/
__global__ void depthwise_conv2d_mult(const float* __restrict__ x, const float* __restrict__ weight,
                                      const float* __restrict__ bias, float* __restrict__ y,
                                      int N, int C, int mult, int H, int W)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int Cout = C * mult;
    if (idx >= N * Cout * H * W)
        return;

    int w = idx % W;
    int h = (idx / W) % H;
    int co = (idx / (W * H)) % Cout;
    int n = idx / (W * H * Cout);
    int ci = co / mult;                         // the input channel of this output channel's group

    const float* plane = x + (n * C + ci) * H * W;
    const float* k = weight + co * KH * KW;
    float s = bias[co];
    for (int i = 0; i < KH; i++) {
        int ih = h + i - PH;
        if (ih < 0 || ih >= H)
            continue;
        for (int j = 0; j < KW; j++) {
            int iw = w + j - PW;
            if (iw < 0 || iw >= W)
                continue;
            s += plane[ih * W + iw] * k[i * KW + j];
        }
    }
    y[idx] = s;
}
