// out[r][c] = sqrt(gx^2 + gy^2) with gx, gy the 3x3 Sobel responses of img around (r, c) (gx: right column minus left column, weights 1 2 1; gy: bottom row minus top row), on the interior of an H x W image; 0 on the one-pixel border.
__device__ __forceinline__ float px(const float* img, int r, int c, int W) { return img[r * W + c]; }

/* @optiml
   sizes:  H=8192 W=8192                # 2^26 floats: 256 MiB in, 256 MiB out
   check:  H=1 W=1; H=2 W=5; H=3 W=3; H=17 W=33; H=100 W=1; H=5 W=1001
   img:    in  float[H*W]
   out:    out float[H*W]
   launch: grid=(cdiv(W,32),cdiv(H,8)) block=(32,8)
   flops:  14*H*W
   tol:    1e-4
*/
__global__ void sobel_magnitude(const float* img, float* out, int H, int W)
{
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= H || col >= W) return;
    if (row == 0 || col == 0 || row == H - 1 || col == W - 1) {
        out[row * W + col] = 0.0f;
        return;
    }
    float gx = px(img, row - 1, col + 1, W) + 2.0f * px(img, row, col + 1, W) + px(img, row + 1, col + 1, W)
             - px(img, row - 1, col - 1, W) - 2.0f * px(img, row, col - 1, W) - px(img, row + 1, col - 1, W);
    float gy = px(img, row + 1, col - 1, W) + 2.0f * px(img, row + 1, col, W) + px(img, row + 1, col + 1, W)
             - px(img, row - 1, col - 1, W) - 2.0f * px(img, row - 1, col, W) - px(img, row - 1, col + 1, W);
    out[row * W + col] = sqrtf(gx * gx + gy * gy);
}
