// y[b][c][l] = x[b][c][l] - max_c' x[b][c'][l] - log(sum_c' exp(x[b][c'][l] - max)): `torch.log_softmax(x, dim=1)` over the middle dimension of [B, C, L] (KernelBench level 1's LogSoftmax, here along the class axis of a segmentation head's per-pixel logits before the NLL loss: ADE20K's 150 classes over 128 x 128 positions) on [16, 150, 16384] fp32; one thread per (b, l) column on a 2-D grid (positions on x, blockIdx.y = b), early return, three passes down the column with a stride of L (max seeded with -FLT_MAX, sum of expf, write), `long` offsets.
#include <cfloat>

/* @optiml
   sizes:   B=16 C=150 L=16384   # x 150 MiB in, y 150 MiB out; 0.2 GFLOP
   check:   B=1 C=1 L=1; B=2 C=3 L=7; B=1 C=150 L=5; B=3 C=2 L=257; B=1 C=21 L=300; B=2 C=64 L=1
   x:       in  float[B*C*L] uniform(-4,4)
   y:       out float[B*C*L]
   launch:  grid=(cdiv(L,256),B) block=256
   flops:   5*B*C*L
   tol:     1e-5
*/
__global__ void log_softmax_dim1(const float* x, float* y, int B, int C, int L)
{
    int l = blockIdx.x * blockDim.x + threadIdx.x;
    int b = blockIdx.y;
    if (l >= L)
        return;

    long base = (long)b * C * L + l;
    float mx = -FLT_MAX;
    for (int c = 0; c < C; c++) {
        float v = x[base + (long)c * L];
        if (v > mx)
            mx = v;
    }
    float sum = 0.0f;
    for (int c = 0; c < C; c++)
        sum += expf(x[base + (long)c * L] - mx);
    float lse = mx + logf(sum);
    for (int c = 0; c < C; c++)
        y[base + (long)c * L] = x[base + (long)c * L] - lse;
}
