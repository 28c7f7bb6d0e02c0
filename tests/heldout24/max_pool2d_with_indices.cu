// out[n][c][oh][ow] = max_{kh,kw<2} x[n][c][2*oh + kh][2*ow + kw] and indices[n][c][oh][ow] = the flat (h * W + w) position of that maximum in its input plane, the first one in scan order, floor mode: F.max_pool2d(x, 2, stride=2, return_indices=True) (what nn.MaxUnpool2d / SegNet consume) on [16, 64, 128, 128]; one thread per output element on a 1-D launch with int indices, the window walked from its top-left value with a strict >, int64 indices.
#include <cstdint>

/* @optiml
   sizes:   N=16 C=64 H=128 W=128       # x 64 MiB in, out 16 MiB and indices 32 MiB (int64) out
   check:   N=1 C=1 H=2 W=2; N=2 C=3 H=5 W=7; N=1 C=4 H=16 W=16; N=3 C=2 H=9 W=33; N=1 C=5 H=2 W=101; N=2 C=1 H=31 W=3
   x:       in  float[N*C*H*W]
   out:     out float[N*C*(H//2)*(W//2)]
   indices: out int64_t[N*C*(H//2)*(W//2)]
   launch:  grid=cdiv(N*C*(H//2)*(W//2),256) block=256
   flops:   4*N*C*(H//2)*(W//2)
   tol:     1e-5
*/
__global__ void max_pool2d_with_indices(const float* x, float* out, int64_t* indices, int N, int C, int H, int W)
{
    int OH = H / 2, OW = W / 2;
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= N * C * OH * OW)
        return;

    int ow = idx % OW;
    int oh = (idx / OW) % OH;
    int nc = idx / (OW * OH);
    const float* plane = x + (size_t)nc * H * W;

    int h0 = oh * 2, w0 = ow * 2;
    int best_pos = h0 * W + w0;
    float best = plane[best_pos];
    for (int kh = 0; kh < 2; kh++)
        for (int kw = 0; kw < 2; kw++) {
            int pos = (h0 + kh) * W + (w0 + kw);
            if (plane[pos] > best) {
                best = plane[pos];
                best_pos = pos;
            }
        }
    out[idx] = best;
    indices[idx] = best_pos;
}
