// out[p][oy][ox] = bilinear interpolation of the H x W plane p at (sy, sx) = (max((oy + 0.5) / 2 - 0.5, 0), max((ox + 0.5) / 2 - 0.5, 0)), neighbours clamped to the last row and column: 2x bilinear upsampling with align_corners=False (F.interpolate(x, scale_factor=2, mode="bilinear")), over P planes.
/* @optiml
   sizes:  P=64 H=512 W=512             # 2^24 floats: 64 MiB in, 256 MiB out
   check:  P=1 H=1 W=1; P=2 H=3 W=5; P=3 H=17 W=33; P=1 H=2 W=301; P=4 H=50 W=1
   x:      in  float[P*H*W]
   out:    out float[P*(2*H)*(2*W)]
   launch: grid=(cdiv(2*W,32),cdiv(2*H,8),P) block=(32,8)
   flops:  12*P*4*H*W
*/
__global__ void upsample_bilinear2x(const float* __restrict__ x, float* __restrict__ out, int P, int H, int W)
{
    int ox = blockIdx.x * blockDim.x + threadIdx.x;
    int oy = blockIdx.y * blockDim.y + threadIdx.y;
    int p = blockIdx.z;
    int OH = 2 * H, OW = 2 * W;
    if (ox >= OW || oy >= OH) return;

    // source coordinates (half-pixel centers), clamped at 0 like PyTorch
    float sy = (oy + 0.5f) * 0.5f - 0.5f;
    float sx = (ox + 0.5f) * 0.5f - 0.5f;
    if (sy < 0.0f) sy = 0.0f;
    if (sx < 0.0f) sx = 0.0f;
    int y0 = (int)sy;
    int x0 = (int)sx;
    int y1 = y0 + 1 < H ? y0 + 1 : H - 1;
    int x1 = x0 + 1 < W ? x0 + 1 : W - 1;
    float ly = sy - y0, lx = sx - x0;

    const float* img = x + (size_t)p * H * W;
    float top = (1.0f - lx) * img[y0 * W + x0] + lx * img[y0 * W + x1];
    float bot = (1.0f - lx) * img[y1 * W + x0] + lx * img[y1 * W + x1];
    out[(size_t)p * OH * OW + oy * OW + ox] = (1.0f - ly) * top + ly * bot;
}
