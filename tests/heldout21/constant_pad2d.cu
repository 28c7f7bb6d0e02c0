// out[p][oh][ow] = x[p][oh - pad_top][ow - pad_left] inside the input, 0 in the border: F.pad(x, (pad_left, pad_right, pad_top, pad_bottom), mode="constant", value=0) on the last two dims of an NCHW map (the asymmetric "same" padding of timm's pad_same before a 4 x 4 stride-1 conv: 1 before, 2 after); one thread per output element, a 3-D grid with the plane on z, a ternary picking the input or 0.
/* @optiml
   sizes:      P=2048 H=128 W=128 pad_left=1 pad_right=2 pad_top=1 pad_bottom=2   # N*C = 32*64 planes: x 128 MiB in, out 134 MiB
   check:      P=1 H=1 W=1 pad_left=1 pad_right=1 pad_top=1 pad_bottom=1; P=2 H=5 W=7 pad_left=1 pad_right=2 pad_top=1 pad_bottom=2; P=3 H=16 W=33 pad_left=3 pad_right=1 pad_top=2 pad_bottom=5; P=1 H=40 W=2 pad_left=2 pad_right=2 pad_top=1 pad_bottom=1; P=5 H=9 W=9 pad_left=4 pad_right=3 pad_top=3 pad_bottom=4; P=7 H=1 W=50 pad_left=1 pad_right=2 pad_top=2 pad_bottom=1
   x:          in  float[P*H*W]
   out:        out float[P*(H+pad_top+pad_bottom)*(W+pad_left+pad_right)]
   launch:     grid=(cdiv(W+pad_left+pad_right,32),cdiv(H+pad_top+pad_bottom,8),P) block=(32,8)
*/
__global__ void constant_pad2d(const float* x, float* out, int P, int H, int W,
                               int pad_left, int pad_right, int pad_top, int pad_bottom)
{
    int OH = H + pad_top + pad_bottom;
    int OW = W + pad_left + pad_right;
    int ow = blockIdx.x * blockDim.x + threadIdx.x;
    int oh = blockIdx.y * blockDim.y + threadIdx.y;
    int p = blockIdx.z;
    if (ow >= OW || oh >= OH) return;

    int ih = oh - pad_top;
    int iw = ow - pad_left;
    bool inside = ih >= 0 && ih < H && iw >= 0 && iw < W;
    out[((long)p * OH + oh) * OW + ow] = inside ? x[((long)p * H + ih) * W + iw] : 0.0f;
}
