// out[n,c,y,x] = sum over i, j in 0..4 of in[n,c,y+i-2,x+j-2] * w[c,i,j] (depthwise 5x5 convolution, one filter per channel, zero padding 2, stride 1); NCHW.
#define KSIZE 5
#define PAD 2

/* @optiml
   sizes:  N=8 C=64 H=256 W=256         # 2^25 floats: 128 MiB in, 128 MiB out
   check:  N=1 C=1 H=1 W=1; N=2 C=3 H=7 W=9; N=1 C=5 H=33 W=2; N=3 C=2 H=4 W=17
   x:      in  float[N*C*H*W]
   w:      in  float[C*25]
   y:      out float[N*C*H*W]
   launch: grid=(cdiv(W,32),cdiv(H,8),N*C) block=(32,8)
   flops:  50*N*C*H*W
   tol:    1e-4
*/
__global__ void depthwise_conv5x5(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y,
                                  int N, int C, int H, int W)
{
    int ox = blockIdx.x * blockDim.x + threadIdx.x;
    int oy = blockIdx.y * blockDim.y + threadIdx.y;
    int nc = blockIdx.z;              // n * C + c
    int c = nc % C;
    if (ox >= W || oy >= H) return;

    const float* plane = x + (size_t)nc * H * W;
    const float* filt = w + c * KSIZE * KSIZE;
    float acc = 0.0f;
    for (int i = 0; i < KSIZE; i++) {
        for (int j = 0; j < KSIZE; j++) {
            int iy = oy + i - PAD;
            int ix = ox + j - PAD;
            float v = (iy >= 0 && iy < H && ix >= 0 && ix < W) ? plane[iy * W + ix] : 0.0f;
            acc += v * filt[i * KSIZE + j];
        }
    }
    y[(size_t)nc * H * W + oy * W + ox] = acc;
}
