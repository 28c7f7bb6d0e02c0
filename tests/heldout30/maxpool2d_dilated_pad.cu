// y[p][oh][ow] = max over kh, kw < 3 of x[p][2 oh - 1 + 2 kh][2 ow - 1 + 2 kw], taps in the padding left out: `nn.MaxPool2d(kernel_size=3, stride=2, padding=1, dilation=2)` (KernelBench level 1's dilated, padded 2-D max pooling) on [16, 64, 112, 112] NCHW (P = N * C = 1024 planes) -> [16, 64, 55, 55] fp32; one thread per output on a 3-D grid of 16 x 16 blocks (ow on x, oh on y, blockIdx.z the plane), #define kernel, stride, padding and dilation, the output extents computed in the kernel from PyTorch's formula, early return, `continue` on rows and columns in the padding, the running maximum seeded with -inf as `__int_as_float(0xff800000)`, a plane pointer.
#define KSIZE 3
#define STRIDE 2
#define PAD 1
#define DIL 2

/* @optiml
   sizes:   P=1024 H=112 W=112   # x 49 MiB in, y 11.8 MiB out; 28 MFLOP (compares)
   check:   P=1 H=3 W=3; P=2 H=5 W=8; P=3 H=4 W=37; P=1 H=40 W=3; P=5 H=7 W=6; P=1 H=3 W=100
   x:       in  float[P*H*W]
   y:       out float[P*((H-3)//2+1)*((W-3)//2+1)]
   launch:  grid=(cdiv((W-3)//2+1,16),cdiv((H-3)//2+1,16),P) block=(16,16)
   flops:   9*P*((H-3)//2+1)*((W-3)//2+1)
   tol:     1e-6
*/
__global__ void maxpool2d_dilated_pad(const float* x, float* y, int P, int H, int W)
{
    const int OH = (H + 2 * PAD - DIL * (KSIZE - 1) - 1) / STRIDE + 1;
    const int OW = (W + 2 * PAD - DIL * (KSIZE - 1) - 1) / STRIDE + 1;
    int ow = blockIdx.x * blockDim.x + threadIdx.x;
    int oh = blockIdx.y * blockDim.y + threadIdx.y;
    int p = blockIdx.z;
    if (ow >= OW || oh >= OH) return;

    const float* plane = x + (size_t)p * H * W;
    float m = __int_as_float(0xff800000);
    for (int kh = 0; kh < KSIZE; kh++) {
        int ih = oh * STRIDE - PAD + kh * DIL;
        if (ih < 0 || ih >= H) continue;
        for (int kw = 0; kw < KSIZE; kw++) {
            int iw = ow * STRIDE - PAD + kw * DIL;
            if (iw < 0 || iw >= W) continue;
            float v = plane[ih * W + iw];
            if (v > m) m = v;
        }
    }
    y[((size_t)p * OH + oh) * OW + ow] = m;
}
