// out[y,x] = sum over c < C, dy, dx in {-1,0,1} of img[c, y+dy, x+dx] * wt[c, dy+1, dx+1] (3x3 convolution, C input channels -> 1 output channel, zero padding 1); img is C x H x W, out is H x W.
#define KS 3
#define PAD 1

/* @optiml
   sizes:  C=256 H=256 W=256
   img:    in float[C*H*W]
   wt:     in float[9*C]
   out:    out float[H*W]
   launch: grid=(cdiv(W,16),cdiv(H,16)) block=(16,16)
*/
__global__ void conv2d_3x3(const float* img, const float* wt, float* out, int C, int H, int W)
{
    int ox = blockIdx.x * blockDim.x + threadIdx.x;
    int oy = blockIdx.y * blockDim.y + threadIdx.y;
    if (ox >= W || oy >= H) return;

    float acc = 0.f;
    for (int c = 0; c < C; ++c) {
        for (int ky = 0; ky < KS; ++ky) {
            int iy = oy + ky - PAD;
            if (iy < 0 || iy >= H) continue;
            for (int kx = 0; kx < KS; ++kx) {
                int ix = ox + kx - PAD;
                if (ix < 0 || ix >= W) continue;
                acc += img[(c * H + iy) * W + ix] * wt[(c * KS + ky) * KS + kx];
            }
        }
    }
    out[oy * W + ox] = acc;
}
