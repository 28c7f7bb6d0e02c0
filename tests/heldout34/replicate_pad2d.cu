// y[n][c][oh][ow] = x[n][c][clamp(oh - pt, 0, H - 1)][clamp(ow - pl, 0, W - 1)], y of size (H + pt + pb) x (W + pl + pr): `F.pad(x, (pl, pr, pt, pb), mode="replicate")` (nn.ReplicationPad2d(3), the edge padding before a 7 x 7 convolution of an image-to-image network's first and last layers) on [8, 64, 256, 256] NCHW fp32 -> [8, 64, 262, 262]; ported from a CPU loop nest over the output: a `ptrdiff_t` grid-stride `for` capped at 2048 blocks of 256 (about 67 elements a thread at the benchmark size) with the stride hoisted from `gridDim`, the flat index peeled into (ow, oh, c, n) by % and /, a `__device__ inline ptrdiff_t idx4(n, c, h, w, C, H, W)` index helper, the source row and column clamped by nested ternaries, the output extents `const int`s computed in the kernel, the four pads as size symbols.
#include <cstddef>

__device__ inline ptrdiff_t idx4(int n, int c, int h, int w, int C, int H, int W)
{
    return ((static_cast<ptrdiff_t>(n) * C + c) * H + h) * W + w;
}

/* @optiml
   sizes:   N=8 C=64 H=256 W=256 pl=3 pr=3 pt=3 pb=3   # x 128 MiB in, y 134 MiB out; a copy, no flops: line
   check:   N=1 C=1 H=1 W=1 pl=1 pr=1 pt=1 pb=1; N=2 C=3 H=5 W=7 pl=1 pr=2 pt=3 pb=1; N=1 C=2 H=1 W=1 pl=2 pr=3 pt=1 pb=4; N=1 C=5 H=17 W=9 pl=4 pr=1 pt=2 pb=2; N=3 C=2 H=2 W=30 pl=1 pr=1 pt=5 pb=6; N=2 C=3 H=300 W=300 pl=1 pr=2 pt=3 pb=4
   x:       in  float[N*C*H*W]
   y:       out float[N*C*(H+pt+pb)*(W+pl+pr)]
   launch:  grid=min(cdiv(N*C*(H+pt+pb)*(W+pl+pr),256),2048) block=256
   tol:     1e-6
*/
__global__ void replicate_pad2d(const float* x, float* y, int N, int C, int H, int W, int pl, int pr, int pt, int pb)
{
    const int Ho = H + pt + pb;
    const int Wo = W + pl + pr;
    const ptrdiff_t total = static_cast<ptrdiff_t>(N) * C * Ho * Wo;
    const ptrdiff_t stride = static_cast<ptrdiff_t>(gridDim.x) * blockDim.x;

    for (ptrdiff_t i = static_cast<ptrdiff_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += stride) {
        ptrdiff_t rest = i;
        const int ow = static_cast<int>(rest % Wo);
        rest /= Wo;
        const int oh = static_cast<int>(rest % Ho);
        rest /= Ho;
        const int c = static_cast<int>(rest % C);
        const int n = static_cast<int>(rest / C);

        const int h = oh < pt ? 0 : (oh - pt >= H ? H - 1 : oh - pt);
        const int w = ow < pl ? 0 : (ow - pl >= W ? W - 1 : ow - pl);
        y[i] = x[idx4(n, c, h, w, C, H, W)];
    }
}
