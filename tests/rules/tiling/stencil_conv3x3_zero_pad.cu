// out = 3x3 convolution of in with the 9 weights k, zero padding (reads outside the image are skipped); in and out
// are H x W row-major. The weights are read directly; only the image is tiled.

/* @optiml
   sizes:  H=4096 W=4096
   check:  H=37 W=1000; H=1 W=3; H=1 W=1; H=1000 W=1; H=2 W=2
   in:     in  float[H*W]
   k:      in  float[9]
   out:    out float[H*W]
   launch: grid=(cdiv(W,16),cdiv(H,16)) block=(16,16)
*/
__global__ void conv3x3_zero_pad(const float* in, const float* k, float* out, int H, int W)
{
    int xo = blockIdx.x * blockDim.x + threadIdx.x;
    int yo = blockIdx.y * blockDim.y + threadIdx.y;
    if (xo < W && yo < H) {
        float s = 0.0f;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int yy = yo + dy, xx = xo + dx;
                if (yy >= 0 && yy < H && xx >= 0 && xx < W)
                    s += k[(dy + 1) * 3 + dx + 1] * in[yy * W + xx];
            }
        out[yo * W + xo] = s;
    }
}
