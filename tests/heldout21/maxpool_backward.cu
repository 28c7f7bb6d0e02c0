// dx[n][c][argmax of window (oh, ow)] += dy[n][c][oh][ow], the window 3 x 3 at stride 2 with padding 1 and its argmax recomputed from x (the first largest element, row by row): the input gradient of F.max_pool2d(x, kernel_size=3, stride=2, padding=1) (the ResNet stem's max-pool, max_pool2d_with_indices_backward); dx must start at 0; one thread per output element, a 3-D grid with the plane on z, one float atomicAdd each since neighbouring windows overlap.
#include <cfloat>

#define KS 3
#define STRIDE 2
#define PAD 1

/* @optiml
   sizes:  P=2048 H=112 W=112           # N*C = 32*64 planes: x 98 MiB, dy 24.5 MiB in, dx 98 MiB (read and written)
   check:  P=1 H=1 W=1; P=2 H=5 W=7; P=3 H=16 W=16; P=1 H=33 W=2; P=5 H=9 W=31; P=4 H=2 W=100
   x:      in    float[P*H*W]
   dy:     in    float[P*((H-1)//2+1)*((W-1)//2+1)]
   dx:     inout float[P*H*W] const(0)   # accumulator: zeroed before each run
   launch: grid=(cdiv((W-1)//2+1,16),cdiv((H-1)//2+1,16),P) block=(16,16)
   flops:  9*P*((H-1)//2+1)*((W-1)//2+1)
*/
__global__ void max_pool2d_backward(const float* x, const float* dy, float* dx, int P, int H, int W)
{
    int OH = (H + 2 * PAD - KS) / STRIDE + 1;
    int OW = (W + 2 * PAD - KS) / STRIDE + 1;
    int ow = blockIdx.x * blockDim.x + threadIdx.x;
    int oh = blockIdx.y * blockDim.y + threadIdx.y;
    int p = blockIdx.z;
    if (ow >= OW || oh >= OH || p >= P)
        return;

    const float* plane = x + (long)p * H * W;
    int best = -1;
    float best_val = -FLT_MAX;
    for (int kh = 0; kh < KS; kh++) {
        int ih = oh * STRIDE - PAD + kh;
        if (ih < 0 || ih >= H) continue;
        for (int kw = 0; kw < KS; kw++) {
            int iw = ow * STRIDE - PAD + kw;
            if (iw < 0 || iw >= W) continue;
            float v = plane[ih * W + iw];
            if (best < 0 || v > best_val) {
                best_val = v;
                best = ih * W + iw;
            }
        }
    }
    atomicAdd(&dx[(long)p * H * W + best], dy[((long)p * OH + oh) * OW + ow]);
}
