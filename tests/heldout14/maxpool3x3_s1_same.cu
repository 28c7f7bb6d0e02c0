// out[p][h][w] = max of x[p][h+i][w+j] over i, j in {-1, 0, 1} with (h+i, w+j) inside the H x W plane: 3x3 max pool, stride 1, padding 1 ("same" size; F.max_pool2d(x, 3, 1, 1)), over P planes.
#include <cfloat>

/* @optiml
   sizes:  P=64 H=1024 W=1024           # 2^26 floats: 256 MiB in, 256 MiB out
   check:  P=1 H=1 W=1; P=2 H=3 W=5; P=3 H=17 W=33; P=1 H=2 W=1001; P=4 H=100 W=1
   x:      in  float[P*H*W]
   out:    out float[P*H*W]
   launch: grid=(cdiv(W,32),cdiv(H,8),P) block=(32,8)
   flops:  8*P*H*W
*/
__global__ void maxpool3x3_s1_same(const float* __restrict__ x, float* __restrict__ out, int P, int H, int W)
{
    int w = blockIdx.x * blockDim.x + threadIdx.x;
    int h = blockIdx.y * blockDim.y + threadIdx.y;
    int p = blockIdx.z;
    if (w >= W || h >= H) return;
    const float* plane = x + (size_t)p * H * W;
    float best = -FLT_MAX;
#pragma unroll
    for (int dy = -1; dy <= 1; dy++) {
#pragma unroll
        for (int dx = -1; dx <= 1; dx++) {
            int yy = h + dy, xx = w + dx;
            if (yy >= 0 && yy < H && xx >= 0 && xx < W)
                best = fmaxf(best, plane[yy * W + xx]);
        }
    }
    out[(size_t)p * H * W + h * W + w] = best;
}
