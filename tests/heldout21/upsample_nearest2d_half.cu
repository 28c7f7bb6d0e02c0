// out[p][oh][ow] = x[p][oh / 2][ow / 2]: nearest-neighbour upsampling by 2 of an NCHW fp16 map, F.interpolate(x, scale_factor=2, mode="nearest") (the top-down path of an FPN, a U-Net decoder under autocast); one thread per output element, the flat output index decoded with / and % over unsigned ints.
#include <cuda_fp16.h>

/* @optiml
   sizes:  P=2048 H=128 W=128           # N*C = 16*128 planes: x 64 MiB in, out 256 MiB
   check:  P=1 H=1 W=1; P=2 H=3 W=5; P=3 H=16 W=16; P=1 H=7 W=33; P=17 H=2 W=1; P=4 H=25 W=10
   x:      in  __half[P*H*W]
   out:    out __half[P*(2*H)*(2*W)]
   launch: grid=cdiv(P*4*H*W,256) block=256
*/
__global__ void upsample_nearest2x_nchw(const __half* x, __half* out, unsigned int P, unsigned int H, unsigned int W)
{
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int OH = 2 * H, OW = 2 * W;
    if (idx >= P * OH * OW)
        return;

    unsigned int ow = idx % OW;
    unsigned int oh = (idx / OW) % OH;
    unsigned int p = idx / (OW * OH);
    out[idx] = x[(p * H + oh / 2) * W + ow / 2];
}
