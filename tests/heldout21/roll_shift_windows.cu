// out[b][h][w][c] = x[b][(h + shift) % H][(w + shift) % W][c]: the cyclic shift of Swin Transformer's shifted-window attention, torch.roll(x, shifts=(-shift_size, -shift_size), dims=(1, 2)) on a channels-last [B, H, W, C] map; one thread per output element, a 3-D grid (w*C + c, h, b).
/* @optiml
   sizes:  B=64 H=56 W=56 C=128 shift=3  # Swin-T stage 1, window 7: 98 MiB in, 98 MiB out
   check:  B=1 H=1 W=1 C=1 shift=1; B=2 H=7 W=7 C=3 shift=3; B=1 H=14 W=21 C=32 shift=3; B=3 H=2 W=5 C=4 shift=3; B=1 H=28 W=28 C=1 shift=13; B=2 H=9 W=4 C=100 shift=1
   x:      in  float[B*H*W*C]
   out:    out float[B*H*W*C]
   launch: grid=(cdiv(W*C,256),H,B) block=256
*/
__global__ void roll_shift_windows(const float* x, float* out, int B, int H, int W, int C, int shift)
{
    int wc = blockIdx.x * blockDim.x + threadIdx.x;
    int h = blockIdx.y;
    int b = blockIdx.z;
    if (wc >= W * C)
        return;

    int w = wc / C;
    int c = wc % C;
    int src_h = (h + shift) % H;
    int src_w = (w + shift) % W;
    out[(((long)b * H + h) * W + w) * C + c] = x[(((long)b * H + src_h) * W + src_w) * C + c];
}
