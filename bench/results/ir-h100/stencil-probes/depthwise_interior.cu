#define KSIZE 5
#define PAD 2
__global__ void depthwise_conv5x5(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y,
                                  int N, int C, int H, int W)
{
    int ox = blockIdx.x * blockDim.x + threadIdx.x;
    int oy = blockIdx.y * blockDim.y + threadIdx.y;
    int nc = blockIdx.z;
    int c = nc % C;
    if (ox >= W || oy >= H) return;
    const float* plane = x + (size_t)nc * H * W;
    const float* filt = w + c * KSIZE * KSIZE;
    float acc = 0.0f;
    if (oy - PAD >= 0 && oy + PAD < H && ox - PAD >= 0 && ox + PAD < W) {
        #pragma unroll
        for (int i = 0; i < KSIZE; i++) {
            #pragma unroll
            for (int j = 0; j < KSIZE; j++)
                acc += plane[(oy + i - PAD) * W + ox + j - PAD] * filt[i * KSIZE + j];
        }
    } else {
        for (int i = 0; i < KSIZE; i++) {
            for (int j = 0; j < KSIZE; j++) {
                int iy = oy + i - PAD;
                int ix = ox + j - PAD;
                float v = (iy >= 0 && (iy) < H && ix >= 0 && ix < W) ? plane[iy * W + ix] : 0.0f;
                acc += v * filt[i * KSIZE + j];
            }
        }
    }
    y[(size_t)nc * H * W + oy * W + ox] = acc;
}
