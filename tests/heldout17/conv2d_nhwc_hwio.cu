// y[n][h][w][co] = sum over ky, kx < 3, ci < Cin of x[n][h+ky-1][w+kx-1][ci] * f[ky][kx][ci][co]: a 3 x 3 convolution, stride 1, SAME (zero) padding, in TensorFlow's layouts (NHWC activations, HWIO filter; tf.nn.conv2d(x, f, 1, "SAME")), no bias; one thread per output element, output channels on threadIdx.x.
#include <cstdint>

/* @optiml
   sizes:  N=16 H=128 W=128 Cin=32 Cout=32   # 2^23 floats in, 2^23 out: 32 MiB + 32 MiB, 36 KiB of filter
   check:  N=1 H=1 W=1 Cin=1 Cout=1; N=2 H=5 W=7 Cin=3 Cout=4; N=1 H=9 W=4 Cin=17 Cout=33; N=1 H=2 W=1 Cin=5 Cout=70; N=3 H=6 W=6 Cin=8 Cout=2
   x:      in  float[N*H*W*Cin]
   f:      in  float[3*3*Cin*Cout]
   y:      out float[N*H*W*Cout]
   launch: grid=(cdiv(Cout,32),cdiv(W,8),N*H) block=(32,8)
   flops:  2*N*H*W*Cout*9*Cin
   tol:    1e-4
*/
__global__ void conv2d_nhwc_hwio_same(const float* __restrict__ x, const float* __restrict__ f, float* __restrict__ y,
                                      int N, int H, int W, int Cin, int Cout)
{
    const int co = blockIdx.x * blockDim.x + threadIdx.x;
    const int ow = blockIdx.y * blockDim.y + threadIdx.y;
    const int n = blockIdx.z / H;
    const int oh = blockIdx.z % H;
    if (co >= Cout || ow >= W || n >= N) return;

    float acc = 0.f;
    for (int ky = 0; ky < 3; ++ky) {
        const int ih = oh + ky - 1;
        if (ih < 0 || ih >= H) continue;
        for (int kx = 0; kx < 3; ++kx) {
            const int iw = ow + kx - 1;
            if (iw < 0 || iw >= W) continue;
            const int64_t xbase = (((int64_t)n * H + ih) * W + iw) * Cin;
            const int64_t fbase = (int64_t)(ky * 3 + kx) * Cin * Cout + co;
            for (int ci = 0; ci < Cin; ++ci)
                acc += x[xbase + ci] * f[fbase + (int64_t)ci * Cout];
        }
    }
    y[(((int64_t)n * H + oh) * W + ow) * Cout + co] = acc;
}
