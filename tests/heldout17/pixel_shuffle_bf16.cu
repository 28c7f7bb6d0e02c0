// output[n][c][h*r + i][w*r + j] = input[n][c*r*r + i*r + j][h][w]: depth-to-space (nn.PixelShuffle(r)) of an N x (C r^2) x H x W bfloat16 tensor into N x C x (H r) x (W r); one thread per output element, the upscale factor r a runtime argument.
#include <cuda_bf16.h>

/* @optiml
   sizes:  N=8 C=64 H=128 W=128 r=2     # 2^25 bf16: 64 MiB in, 64 MiB out
   check:  N=1 C=1 H=1 W=1 r=1; N=1 C=1 H=1 W=1 r=2; N=2 C=3 H=5 W=7 r=2; N=1 C=2 H=3 W=4 r=3; N=3 C=1 H=17 W=2 r=4; N=1 C=5 H=33 W=9 r=2
   input:  in  __nv_bfloat16[N*C*r*r*H*W]
   output: out __nv_bfloat16[N*C*r*r*H*W]
   launch: grid=cdiv(N*C*r*r*H*W,256) block=256
*/
__global__ void pixel_shuffle(const __nv_bfloat16* input, __nv_bfloat16* output, int N, int C, int H, int W, int r)
{
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const int OH = H * r, OW = W * r;
    long long total = (long long)N * C * OH * OW;
    if (idx >= total)
        return;

    // decode the output index (n, c, oh, ow), ow fastest
    int ow = idx % OW;
    long long t = idx / OW;
    int oh = t % OH;
    t /= OH;
    int c = t % C;
    int n = t / C;

    int h = oh / r, i = oh % r;
    int w = ow / r, j = ow % r;
    int ic = c * r * r + i * r + j;
    output[idx] = input[(((long long)n * C * r * r + ic) * H + h) * W + w];
}
