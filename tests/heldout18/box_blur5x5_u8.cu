// dst[y][x] = (sum of the 5 x 5 window of src around (y, x) + 12) / 25 in integers (the window mean rounded half up), border pixels replicated (cv::blur with ksize (5, 5) and BORDER_REPLICATE, rounding as written here) on an 8-bit single-channel H x W image; one thread per pixel, a 2-D grid, a nested-ternary CLAMP macro.
#define RADIUS 2
#define CLAMP(v, lo, hi) ((v) < (lo) ? (lo) : (v) > (hi) ? (hi) : (v))

/* @optiml
   sizes:  H=8192 W=8192                # 64 MiB of uint8 in, 64 MiB out
   check:  H=1 W=1; H=2 W=3; H=7 W=5; H=33 W=65; H=1 W=100; H=100 W=1
   src:    in  unsigned char[H*W] range(0,256)
   dst:    out unsigned char[H*W]
   launch: grid=(cdiv(W,32),cdiv(H,8)) block=(32,8)
   flops:  26*H*W
*/
__global__ void box_blur5x5_u8(const unsigned char* __restrict__ src, unsigned char* __restrict__ dst, int H, int W)
{
    constexpr unsigned int kArea = (2 * RADIUS + 1) * (2 * RADIUS + 1);
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= W || y >= H)
        return;

    unsigned int sum = 0;
    for (int dy = -RADIUS; dy <= RADIUS; ++dy) {
        const int yy = CLAMP(y + dy, 0, H - 1);
        for (int dx = -RADIUS; dx <= RADIUS; ++dx) {
            const int xx = CLAMP(x + dx, 0, W - 1);
            sum += src[yy * W + xx];
        }
    }
    dst[y * W + x] = (unsigned char)((sum + kArea / 2) / kArea);
}
