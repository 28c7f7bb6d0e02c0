// gray[y][x] = (77*R + 150*G + 29*B + 128) >> 8 with (R, G, B) = rgb[y][x][0..2]: interleaved 8-bit RGB to 8-bit luma (BT.601 weights in 8-bit fixed point).
#define WR 77
#define WG 150
#define WB 29

/* @optiml
   sizes:  height=8192 width=8192       # 192 MiB of RGB bytes in, 64 MiB out
   check:  height=1 width=1; height=3 width=5; height=17 width=33; height=2 width=1001
   rgb:    in  unsigned char[height*width*3] range(0,256)
   gray:   out unsigned char[height*width]
   launch: grid=(cdiv(width,32),cdiv(height,8)) block=(32,8)
   flops:  6*height*width
*/
__global__ void rgb_to_gray(const unsigned char* __restrict__ rgb, unsigned char* __restrict__ gray,
                            unsigned int width, unsigned int height)
{
    unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        unsigned int p = y * width + x;
        unsigned int r = rgb[3 * p], g = rgb[3 * p + 1], b = rgb[3 * p + 2];
        gray[p] = (unsigned char)((WR * r + WG * g + WB * b + 128) >> 8);
    }
}
