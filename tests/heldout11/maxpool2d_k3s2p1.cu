// out[p][oh][ow] = max of x[p][ih][iw] over ih in 2*oh-1..2*oh+1 and iw in 2*ow-1..2*ow+1 inside the image: 2-D max pool, kernel 3, stride 2, padding 1 (the ResNet stem pool), over P = N*C planes of H x W.
#define KS 3
#define STRIDE 2
#define PAD 1

/* @optiml
   sizes:  P=256 H=512 W=512            # 2^26 floats: 256 MiB in, 64 MiB out
   check:  P=1 H=1 W=1; P=2 H=3 W=5; P=3 H=8 W=9; P=1 H=33 W=2
   x:      in  float[P*H*W]
   out:    out float[P*((H-1)/2+1)*((W-1)/2+1)]
   launch: grid=(cdiv((W-1)/2+1,32),cdiv((H-1)/2+1,8),P) block=(32,8)
   flops:  9*P*((H-1)/2+1)*((W-1)/2+1)
*/
__global__ void maxpool2d_k3s2p1(const float* x, float* out, int P, int H, int W)
{
    const int OH = (H + 2 * PAD - KS) / STRIDE + 1;
    const int OW = (W + 2 * PAD - KS) / STRIDE + 1;
    int ow = blockIdx.x * blockDim.x + threadIdx.x;
    int oh = blockIdx.y * blockDim.y + threadIdx.y;
    int p = blockIdx.z;
    if (ow >= OW || oh >= OH) return;

    const float* plane = x + (size_t)p * H * W;
    float m = -3.402823466e+38f;
    for (int i = 0; i < KS; i++) {
        int ih = oh * STRIDE - PAD + i;
        if (ih < 0 || ih >= H) continue;
        for (int j = 0; j < KS; j++) {
            int iw = ow * STRIDE - PAD + j;
            float v = (iw >= 0 && iw < W) ? plane[ih * W + iw] : -3.402823466e+38f;
            m = fmaxf(m, v);
        }
    }
    out[((size_t)p * OH + oh) * OW + ow] = m;
}
