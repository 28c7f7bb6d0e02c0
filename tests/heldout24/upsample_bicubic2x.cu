// y[p][oy][ox] = sum_{r,c=0..3} wy[r] * wx[c] * x[p][clamp(y0 - 1 + r)][clamp(x0 - 1 + c)], with the half-pixel source sx = (ox + 0.5) / 2 - 0.5, x0 = floor(sx) and Keys' cubic weights (A = -0.75) of sx - x0, indices clamped to the image: F.interpolate(x, scale_factor=2, mode="bicubic", align_corners=False) on [8, 4, 448, 448] -> [8, 4, 896, 896]; a size_t grid-stride loop over the output (at most 4096 blocks of 256), small __device__ helpers for the two cubic pieces and the clamp, weights in local arrays.
#define CUBIC_A -0.75f

__device__ float cubic_near(float t)   // |t| <= 1
{
    return ((CUBIC_A + 2.0f) * t - (CUBIC_A + 3.0f)) * t * t + 1.0f;
}

__device__ float cubic_far(float t)    // 1 < |t| < 2
{
    return ((CUBIC_A * t - 5.0f * CUBIC_A) * t + 8.0f * CUBIC_A) * t - 4.0f * CUBIC_A;
}

__device__ int clampi(int v, int lo, int hi)
{
    return min(max(v, lo), hi);
}

/* @optiml
   sizes:   P=32 H=448 W=448            # x 24.5 MiB in, y 98 MiB out
   check:   P=1 H=1 W=1; P=2 H=2 W=3; P=1 H=5 W=7; P=3 H=16 W=9; P=1 H=1 W=130; P=2 H=33 W=17; P=1 H=513 W=515
   x:       in  float[P*H*W]
   y:       out float[P*(2*H)*(2*W)]
   launch:  grid=min(cdiv(P*4*H*W,256),4096) block=256
   flops:   40*P*4*H*W
   tol:     1e-5
*/
__global__ void upsample_bicubic2x(const float* x, float* y, int P, int H, int W)
{
    int OH = 2 * H, OW = 2 * W;
    size_t total = (size_t)P * OH * OW;

    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < total; i += (size_t)blockDim.x * gridDim.x) {
        int ox = i % OW;
        int oy = (i / OW) % OH;
        size_t p = i / ((size_t)OW * OH);

        float sx = 0.5f * (ox + 0.5f) - 0.5f;
        float sy = 0.5f * (oy + 0.5f) - 0.5f;
        int x0 = (int)floorf(sx);
        int y0 = (int)floorf(sy);
        float tx = sx - x0;
        float ty = sy - y0;

        float wx[4] = {cubic_far(tx + 1.0f), cubic_near(tx), cubic_near(1.0f - tx), cubic_far(2.0f - tx)};
        float wy[4] = {cubic_far(ty + 1.0f), cubic_near(ty), cubic_near(1.0f - ty), cubic_far(2.0f - ty)};

        const float* src = x + p * H * W;
        float acc = 0.0f;
        for (int r = 0; r < 4; r++) {
            int yy = clampi(y0 - 1 + r, 0, H - 1);
            float row = 0.0f;
            for (int c = 0; c < 4; c++) {
                int xx = clampi(x0 - 1 + c, 0, W - 1);
                row += wx[c] * src[yy * W + xx];
            }
            acc += wy[r] * row;
        }
        y[i] = acc;
    }
}
