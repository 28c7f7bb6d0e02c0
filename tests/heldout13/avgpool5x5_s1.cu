// out[p][h][w] = mean of x[p][h+i][w+j] over i, j in [-2, 2] with (h+i, w+j) inside the H x W plane: 5x5 average pool, stride 1, padding 2, padded taps not counted (F.avg_pool2d(x, 5, 1, 2, count_include_pad=False)), over P planes.
#define KS 5
#define R (KS / 2)

/* @optiml
   sizes:  P=64 H=1024 W=1024           # 2^26 floats: 256 MiB in, 256 MiB out
   check:  P=1 H=1 W=1; P=2 H=3 W=5; P=3 H=17 W=33; P=1 H=2 W=1001; P=4 H=100 W=1
   x:      in  float[P*H*W]
   out:    out float[P*H*W]
   launch: grid=cdiv(P*H*W,256) block=256
   flops:  26*P*H*W
*/
__global__ void avgpool5x5_s1(const float* x, float* out, int P, int H, int W)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= (size_t)P * H * W)
        return;
    int w = t % W;
    int h = (t / W) % H;
    size_t p = t / ((size_t)H * W);
    const float* plane = x + p * H * W;
    float sum = 0.0f;
    int count = 0;
    for (int i = -R; i <= R; i++) {
        int hh = h + i;
        if (hh < 0 || hh >= H)
            continue;
        for (int j = -R; j <= R; j++) {
            int ww = w + j;
            if (ww >= 0 && ww < W) {
                sum += plane[hh * W + ww];
                count++;
            }
        }
    }
    out[t] = sum / count;
}
