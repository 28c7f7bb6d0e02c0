// 64x16 output tile a block of 64x4 threads, 4 rows a thread; each channel's 66x18 input tile staged in shared memory.
__global__ void __launch_bounds__(256) conv2d_3x3(const float* __restrict__ img, const float* __restrict__ wt, float* __restrict__ out, int C, int H, int W)
{
    __shared__ float s[18][66];
    int x0 = blockIdx.x * 64, y0 = blockIdx.y * 16;
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc[4] = {0.f, 0.f, 0.f, 0.f};
    for (int c = 0; c < C; ++c) {
        const float* plane = img + (long)c * H * W;
        for (int e = ty * 64 + tx; e < 18 * 66; e += 256) {
            int r = e / 66, q = e % 66;
            int iy = y0 + r - 1, ix = x0 + q - 1;
            s[r][q] = (iy >= 0 && iy < H && ix >= 0 && ix < W) ? plane[(long)iy * W + ix] : 0.f;
        }
        __syncthreads();
        float wv[9];
        #pragma unroll
        for (int t = 0; t < 9; ++t) wv[t] = __ldg(wt + c * 9 + t);
        #pragma unroll
        for (int r = 0; r < 6; ++r) {
            float a = s[ty * 4 + r][tx], b = s[ty * 4 + r][tx + 1], d = s[ty * 4 + r][tx + 2];
            #pragma unroll
            for (int p = 0; p < 4; ++p) {
                int ky = r - p;
                if (ky >= 0 && ky < 3) acc[p] += a * wv[ky * 3] + b * wv[ky * 3 + 1] + d * wv[ky * 3 + 2];
            }
        }
        __syncthreads();
    }
    #pragma unroll
    for (int p = 0; p < 4; ++p) {
        int oy = y0 + ty * 4 + p, ox = x0 + tx;
        if (oy < H && ox < W) out[(long)oy * W + ox] = acc[p];
    }
}
