// y[n][c][d][h][w] = bias[c] + sum over kd, kh, kw < 3 of weight[c][kd][kh][kw] * x[n][c][d+kd-1][h+kh-1][w+kw-1], zero padding: a depthwise 3-D convolution (nn.Conv3d(C, C, 3, padding=1, groups=C)) over an NCDHW volume / video tensor; one thread per output, a 3-D grid whose z axis is the (image, channel, depth) slice, a FOR3 loop macro.
#define FOR3(k) for (int k = 0; k < 3; ++k)

/* @optiml
   sizes:  N=2 C=32 D=32 H=128 W=128    # 2^25 floats: 128 MiB in, 128 MiB out
   check:  N=1 C=1 D=1 H=1 W=1; N=1 C=2 D=3 H=5 W=7; N=2 C=3 D=4 H=9 W=33; N=1 C=5 D=1 H=17 W=2; N=3 C=1 D=7 H=1 W=40
   x:      in  float[N*C*D*H*W]
   weight: in  float[C*27]
   bias:   in  float[C]
   y:      out float[N*C*D*H*W]
   launch: grid=(cdiv(W,32),cdiv(H,8),N*C*D) block=(32,8)
   flops:  54*N*C*D*H*W
   tol:    1e-4
*/
__global__ void depthwise_conv3d_k3(const float* x, const float* weight, const float* bias, float* y,
                                    int N, int C, int D, int H, int W)
{
    const int ow = blockIdx.x * blockDim.x + threadIdx.x;
    const int oh = blockIdx.y * blockDim.y + threadIdx.y;
    const int z = blockIdx.z;                  // (n * C + c) * D + od
    if (ow >= W || oh >= H || z >= N * C * D)
        return;

    const int od = z % D;
    const int nc = z / D;
    const int c = nc % C;
    const float* xin = x + (size_t)nc * D * H * W;
    const float* wc = weight + c * 27;

    float acc = bias[c];
    FOR3(kd) {
        const int id = od + kd - 1;
        if (id < 0 || id >= D) continue;
        FOR3(kh) {
            const int ih = oh + kh - 1;
            if (ih < 0 || ih >= H) continue;
            FOR3(kw) {
                const int iw = ow + kw - 1;
                if (iw < 0 || iw >= W) continue;
                acc += wc[(kd * 3 + kh) * 3 + kw] * xin[((size_t)id * H + ih) * W + iw];
            }
        }
    }
    y[((size_t)z * H + oh) * W + ow] = acc;
}
