// y[p][oh][ow] = mean of x[p][h][w] over the in-image taps of the 3 x 3 window starting at (2*oh - 1, 2*ow - 1): F.avg_pool2d(kernel_size=3, stride=2, padding=1, count_include_pad=False) over the P planes of an NCHW tensor, OH = (H - 1) / 2 + 1 and OW = (W - 1) / 2 + 1; one thread per output, a size_t index decoded ow-fastest, taps counted while skipping (continue) and leaving (break) the padding.
#define KSZ 3
#define STRIDE 2
#define PAD 1

/* @optiml
   sizes:  P=128 H=512 W=512            # 128 MiB in, 32 MiB out
   check:  P=1 H=1 W=1; P=2 H=2 W=3; P=3 H=7 W=9; P=1 H=33 W=2; P=4 H=16 W=16; P=1 H=4 W=1
   x:      in  float[P*H*W]
   y:      out float[P*((H-1)//2+1)*((W-1)//2+1)]
   launch: grid=cdiv(P*((H-1)//2+1)*((W-1)//2+1),256) block=256
   flops:  10*P*((H-1)//2+1)*((W-1)//2+1)
*/
__global__ void avg_pool2d_k3s2p1(const float* x, float* y, int P, int H, int W)
{
    const int OH = (H + 2 * PAD - KSZ) / STRIDE + 1;
    const int OW = (W + 2 * PAD - KSZ) / STRIDE + 1;
    size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= (size_t)P * OH * OW)
        return;

    const int ow = (int)(idx % OW);
    const int oh = (int)((idx / OW) % OH);
    const size_t p = idx / ((size_t)OW * OH);
    const float* plane = x + p * H * W;

    float sum = 0.0f;
    int cnt = 0;
    for (int h = oh * STRIDE - PAD; h < oh * STRIDE - PAD + KSZ; ++h) {
        if (h < 0) continue;
        if (h >= H) break;
        for (int w = ow * STRIDE - PAD; w < ow * STRIDE - PAD + KSZ; ++w) {
            if (w < 0) continue;
            if (w >= W) break;
            sum += plane[(size_t)h * W + w];
            ++cnt;
        }
    }
    y[idx] = sum / cnt;
}
