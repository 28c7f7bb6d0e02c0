// y[n][c][od][oh][ow] = max over kd, kh, kw in {0, 1} of x[n][c][2 od + kd][2 oh + kh][2 ow + kw], with OD = D / 2, OH = H / 2, OW = W / 2 (floor mode: an odd last slice, row or column is dropped): `nn.MaxPool3d(kernel_size=2, stride=2)` (a 3-D U-Net's or V-Net's encoder downsampling) on [8, 64, 32, 64, 64] NCDHW fp32 -> [8, 64, 16, 32, 32]; a student's one-thread-per-output kernel: `#define POOL_SIZE 2` and `#define STRIDE 2`, the output extents computed in the kernel by integer division, the flat index decoded by `%` and `/` into five coordinates, three nested `int` loops, the max seeded with `-FLT_MAX` from `<cfloat>` and updated with `fmaxf`, early `return`.
#include <cfloat>

#define POOL_SIZE 2
#define STRIDE 2

/* @optiml
   sizes:   N=8 C=64 D=32 H=64 W=64   # x 256 MiB in, y 32 MiB out; 58.7 MFLOP
   check:   N=1 C=1 D=2 H=2 W=2; N=1 C=1 D=3 H=3 W=3; N=2 C=3 D=5 H=7 W=4; N=1 C=5 D=4 H=9 W=11; N=3 C=2 D=2 H=33 W=17; N=1 C=2 D=7 H=2 W=64
   x:       in  float[N*C*D*H*W]
   y:       out float[N*C*(D/2)*(H/2)*(W/2)]
   launch:  grid=cdiv(N*C*(D/2)*(H/2)*(W/2),256) block=256
   flops:   7*N*C*(D/2)*(H/2)*(W/2)
   tol:     1e-6
*/
__global__ void maxpool3d_k2s2(const float* x, float* y, int N, int C, int D, int H, int W)
{
    int OD = D / STRIDE;
    int OH = H / STRIDE;
    int OW = W / STRIDE;
    int total = N * C * OD * OH * OW;

    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total)
        return;

    int ow = idx % OW;
    int oh = (idx / OW) % OH;
    int od = (idx / (OW * OH)) % OD;
    int c = (idx / (OW * OH * OD)) % C;
    int n = idx / (OW * OH * OD * C);

    float maxval = -FLT_MAX;
    for (int kd = 0; kd < POOL_SIZE; kd++) {
        for (int kh = 0; kh < POOL_SIZE; kh++) {
            for (int kw = 0; kw < POOL_SIZE; kw++) {
                int d = od * STRIDE + kd;
                int h = oh * STRIDE + kh;
                int w = ow * STRIDE + kw;
                int in_idx = (((n * C + c) * D + d) * H + h) * W + w;
                maxval = fmaxf(maxval, x[in_idx]);
            }
        }
    }
    y[idx] = maxval;
}
