// dst[y][x] = (sum_{i, j = 0..4} k[i] k[j] src[r(2 y + i - 2)][c(2 x + j - 2)] + 128) >> 8 with k = (1, 4, 6, 4, 1) and r, c OpenCV's BORDER_REFLECT_101 (`gfedcb|abcdefgh|gfedcba`), dst of ((rows + 1) / 2) x ((cols + 1) / 2): `cv::pyrDown(src, dst)` (one level of a Gaussian image pyramid, OpenCV's 8-bit fixed-point rounding `FixPtCast<uchar, 8>`) on an 8K (7680 x 4320) 8-bit gray frame; in the style of OpenCV's CUDA filters: `unsigned char` images with row pitches (`src_step`, `dst_step`) in bytes, `const unsigned char* src_row = src + ... * src_step`, a `__device__ __forceinline__` border helper written as OpenCV's `BrdReflect101` (`::abs(last - ::abs(last - i)) % (last + 1)`, valid down to 1-pixel images), a local `const int kernel5[5]` table, two nested loops with an `int` sum, the output extents computed in the kernel, a `(32, 8)` 2-D launch over the output with an early `return`, and the destination's padding bytes left as they were (`inout`).

__device__ __forceinline__ int brd_reflect101(int i, int last)
{
    const int hi = ::abs(last - ::abs(last - i)) % (last + 1);
    return ::abs(hi) % (last + 1);
}

/* @optiml
   sizes:   rows=4320 cols=7680 src_step=7680 dst_step=3840   # src 31.64 MiB in, dst 7.91 MiB in and out (inout); 0.41 GFLOP
   check:   rows=1 cols=1 src_step=1 dst_step=1; rows=2 cols=3 src_step=4 dst_step=2; rows=5 cols=7 src_step=8 dst_step=6; rows=33 cols=65 src_step=128 dst_step=64; rows=17 cols=1 src_step=32 dst_step=32; rows=100 cols=130 src_step=130 dst_step=80
   src:     in    unsigned char[rows*src_step] range(0,256)
   dst:     inout unsigned char[((rows+1)/2)*dst_step] const(0)
   launch:  grid=(cdiv((cols+1)/2,32),cdiv((rows+1)/2,8)) block=(32,8)
   flops:   50*((rows+1)/2)*((cols+1)/2)
   tol:     1e-6
*/
__global__ void pyr_down_u8(const unsigned char* src, int src_step, unsigned char* dst, int dst_step, int rows, int cols)
{
    const int kernel5[5] = {1, 4, 6, 4, 1};
    const int dst_rows = (rows + 1) / 2;
    const int dst_cols = (cols + 1) / 2;

    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= dst_cols || y >= dst_rows)
        return;

    int sum = 0;
    for (int i = 0; i < 5; ++i) {
        const int sy = brd_reflect101(2 * y + i - 2, rows - 1);
        const unsigned char* src_row = src + sy * src_step;
        for (int j = 0; j < 5; ++j) {
            const int sx = brd_reflect101(2 * x + j - 2, cols - 1);
            sum += kernel5[i] * kernel5[j] * (int)src_row[sx];
        }
    }
    dst[y * dst_step + x] = (unsigned char)((sum + 128) >> 8);
}
