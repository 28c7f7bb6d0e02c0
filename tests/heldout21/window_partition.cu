// out[b * nH * nW + wh * nW + ww][i][j][c] = x[b][wh * 7 + i][ww * 7 + j][c] with nH = H / 7, nW = W / 7: Swin Transformer's window_partition(x, window_size=7) of a channels-last [B, H, W, C] map into [B * nH * nW, 7, 7, C] windows (x.view(B, H // 7, 7, W // 7, 7, C).permute(0, 1, 3, 2, 4, 5).contiguous()); one thread per output element, the flat output index decoded with / and % over size_t.
#define WS 7

/* @optiml
   sizes:  B=64 H=56 W=56 C=128        # Swin-T stage 1: 98 MiB in, 98 MiB out
   check:  B=1 H=7 W=7 C=1; B=2 H=14 W=21 C=3; B=1 H=28 W=7 C=32; B=3 H=7 W=14 C=5; B=1 H=21 W=21 C=2; B=2 H=7 W=7 C=96
   x:      in  float[B*H*W*C]
   out:    out float[B*H*W*C]
   launch: grid=cdiv(B*H*W*C,256) block=256
*/
__global__ void window_partition(const float* x, float* out, int B, int H, int W, int C)
{
    size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t total = (size_t)B * H * W * C;
    if (idx >= total) return;

    int nH = H / WS;
    int nW = W / WS;

    size_t c = idx % C;
    size_t j = (idx / C) % WS;
    size_t i = (idx / ((size_t)C * WS)) % WS;
    size_t win = idx / ((size_t)C * WS * WS);   // b * nH * nW + wh * nW + ww
    size_t ww = win % nW;
    size_t wh = (win / nW) % nH;
    size_t b = win / ((size_t)nW * nH);

    size_t h = wh * WS + i;
    size_t w = ww * WS + j;
    out[idx] = x[((b * H + h) * W + w) * C + c];
}
