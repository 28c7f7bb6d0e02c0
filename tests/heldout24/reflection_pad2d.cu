// y[p][i][j] = x[p][reflect(i - 3)][reflect(j - 3)] with reflect(-k) = k and reflect(n - 1 + k) = n - 1 - k (the edge not repeated): nn.ReflectionPad2d(3) (F.pad(x, (3, 3, 3, 3), mode="reflect"), the first layer of the CycleGAN / pix2pix ResNet generator before its 7 x 7 convolution) on [8, 32, 250, 250]; one thread per output element on a 3-D grid (blockIdx.z = n * C + c) of 32 x 8 blocks, a small __device__ helper mirroring an index, an early return.
#define PAD 3

__device__ __forceinline__ int reflect_index(int i, int n)
{
    if (i < 0)
        i = -i;
    if (i >= n)
        i = 2 * (n - 1) - i;
    return i;
}

/* @optiml
   sizes:   N=8 C=32 H=250 W=250        # x 61 MiB in, y 64 MiB out (256 x 256 planes)
   check:   N=1 C=1 H=4 W=4; N=2 C=3 H=5 W=7; N=1 C=2 H=26 W=4; N=3 C=1 H=9 W=33; N=1 C=5 H=17 W=250; N=2 C=2 H=4 W=61
   x:       in  float[N*C*H*W]
   y:       out float[N*C*(H+2*3)*(W+2*3)]
   launch:  grid=(cdiv(W+6,32),cdiv(H+6,8),N*C) block=(32,8)
   tol:     1e-5
*/
__global__ void reflection_pad2d(const float* x, float* y, int N, int C, int H, int W)
{
    const int OH = H + 2 * PAD;
    const int OW = W + 2 * PAD;
    int ow = blockIdx.x * blockDim.x + threadIdx.x;
    int oh = blockIdx.y * blockDim.y + threadIdx.y;
    long plane = blockIdx.z;

    if (ow >= OW || oh >= OH)
        return;

    int ih = reflect_index(oh - PAD, H);
    int iw = reflect_index(ow - PAD, W);
    y[plane * OH * OW + oh * OW + ow] = x[plane * H * W + ih * W + iw];
}
