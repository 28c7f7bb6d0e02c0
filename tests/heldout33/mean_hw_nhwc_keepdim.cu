// y[n][0][0][c] = (1 / (H W)) sum_{h < H, w < W} x[n][h][w][c]: `x.mean(dim=(1, 2), keepdim=True)` on channels-last activations [N, H, W, C] (the squeeze of a squeeze-and-excitation block as TensorFlow-ported EfficientNets and MobileNets compute it on NHWC tensors; KernelBench level 1's mean over a dimension, here over two with keepdim) on [64, 56, 56, 256] fp32 post-ReLU activations -> [64, 1, 1, 256]; one thread per (n, c) on a 1-D launch with `uint32_t` indices (<cstdint>), a braced bounds if, a pointer stepped `p += C` one pixel at a time, a `double` accumulator for the float data, the pixel count a `const int` computed in the kernel.
#include <cstdint>

/* @optiml
   sizes:   N=64 H=56 W=56 C=256   # x 196 MiB in, y 64 KiB out; 51 MFLOP
   check:   N=1 H=1 W=1 C=1; N=2 H=3 W=5 C=7; N=1 H=7 W=7 C=129; N=3 H=2 W=9 C=64; N=1 H=14 W=14 C=300; N=5 H=1 W=3 C=2
   x:       in  float[N*H*W*C] uniform(0,2)
   y:       out float[N*C]
   launch:  grid=cdiv(N*C,128) block=128
   flops:   N*H*W*C + N*C
*/
__global__ void mean_hw_nhwc_keepdim(const float* x, float* y, int N, int H, int W, int C)
{
    uint32_t idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < (uint32_t)N * (uint32_t)C) {
        const uint32_t n = idx / (uint32_t)C;
        const uint32_t c = idx % (uint32_t)C;
        const int HW = H * W;
        const float* p = x + (size_t)n * HW * C + c;
        double acc = 0.0;
        for (int i = 0; i < HW; i++) {
            acc += *p;
            p += C;
        }
        y[idx] = (float)(acc / HW);
    }
}
