#define KS 3
#define PAD 1
__global__ void conv2d_3x3(const float* img, const float* wt, float* out, int C, int H, int W)
{
    int ox = blockIdx.x * blockDim.x + threadIdx.x;
    int oy = blockIdx.y * blockDim.y + threadIdx.y;
    if (ox >= W || oy >= H) return;
    float acc = 0.f;
    if (oy - 1 >= 0 && oy + 1 < H && ox - 1 >= 0 && ox + 1 < W) {
        for (int c = 0; c < C; ++c) {
            #pragma unroll
            for (int ky = 0; ky < KS; ++ky) {
                int iy = oy + ky - PAD;
                #pragma unroll
                for (int kx = 0; kx < KS; ++kx) {
                    int ix = ox + kx - PAD;
                    acc += img[(c * H + iy) * W + ix] * wt[(c * KS + ky) * KS + kx];
                }
            }
        }
    } else {
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
    }
    out[oy * W + ox] = acc;
}
