// (R, G, B)[y][x] = saturate((max(0, Y - 16) * CY + (1 << 19) + (CVR v, CVG v + CUG u, CUB u)) >> 20) with u, v = U - 128, V - 128 of the pixel's 2 x 2 block and OpenCV's BT.601 constants (CY = 1220542, CUB = 2116026, CUG = -409993, CVG = -852492, CVR = 1673527, SHIFT = 20): `cv::cvtColor(nv12, rgb, cv::COLOR_YUV2RGB_NV12)` (OpenCV's fixed-point `YUV420sp2RGB`, as `nppiNV12ToRGB_8u_P2C3R` is used on decoded NVDEC frames) on a 3840 x 2160 frame whose Y and interleaved UV planes share a 4096-byte pitch, into a packed RGB image with an 11776-byte pitch; in the style of an OpenCV / NPP image kernel: `unsigned char` planes with row pitches (`step`) in bytes, row pointers `y_plane + y * src_step`, `(int)` casts of the samples, `#define ITUR_BT_601_*` constants, a `__device__ __forceinline__` `saturate_cast_u8` helper, `x & ~1` for the chroma pair, `>>` on signed ints, a `(32, 8)` 2-D launch with an early `return`, and the destination's padding bytes left as they were (`inout`).

#define ITUR_BT_601_CY    1220542
#define ITUR_BT_601_CUB   2116026
#define ITUR_BT_601_CUG   -409993
#define ITUR_BT_601_CVG   -852492
#define ITUR_BT_601_CVR   1673527
#define ITUR_BT_601_SHIFT 20

__device__ __forceinline__ unsigned char saturate_cast_u8(int v)
{
    return (unsigned char)((unsigned int)v <= 255u ? v : (v > 0 ? 255 : 0));
}

/* @optiml
   sizes:    width=3840 height=2160 src_step=4096 dst_step=11776   # Y 8.44 MiB in, UV 4.22 MiB in, RGB 24.26 MiB in and out (inout, pitch padding kept); 0.1 GFLOP
   check:    width=2 height=2 src_step=2 dst_step=6; width=6 height=4 src_step=8 dst_step=20; width=34 height=10 src_step=64 dst_step=102; width=66 height=18 src_step=512 dst_step=512; width=2 height=34 src_step=16 dst_step=16; width=130 height=30 src_step=130 dst_step=512
   y_plane:  in    unsigned char[height*src_step] range(0,256)
   uv_plane: in    unsigned char[(height/2)*src_step] range(0,256)
   dst:      inout unsigned char[height*dst_step] const(0)
   launch:   grid=(cdiv(width,32),cdiv(height,8)) block=(32,8)
   flops:    12*width*height
   tol:      1e-6
*/
__global__ void nv12_to_rgb(const unsigned char* y_plane, const unsigned char* uv_plane, int src_step,
                            unsigned char* dst, int dst_step, int width, int height)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;

    const unsigned char* y_row = y_plane + y * src_step;
    const unsigned char* uv_row = uv_plane + (y >> 1) * src_step;

    const int u = (int)uv_row[x & ~1] - 128;
    const int v = (int)uv_row[(x & ~1) + 1] - 128;
    const int ruv = (1 << (ITUR_BT_601_SHIFT - 1)) + ITUR_BT_601_CVR * v;
    const int guv = (1 << (ITUR_BT_601_SHIFT - 1)) + ITUR_BT_601_CVG * v + ITUR_BT_601_CUG * u;
    const int buv = (1 << (ITUR_BT_601_SHIFT - 1)) + ITUR_BT_601_CUB * u;

    const int yy = max(0, (int)y_row[x] - 16) * ITUR_BT_601_CY;

    unsigned char* dst_row = dst + y * dst_step;
    dst_row[3 * x + 0] = saturate_cast_u8((yy + ruv) >> ITUR_BT_601_SHIFT);
    dst_row[3 * x + 1] = saturate_cast_u8((yy + guv) >> ITUR_BT_601_SHIFT);
    dst_row[3 * x + 2] = saturate_cast_u8((yy + buv) >> ITUR_BT_601_SHIFT);
}
