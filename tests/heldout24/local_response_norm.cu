// y[n][c][h][w] = x[n][c][h][w] / (k + alpha / 5 * sum_{c'=c-2..c+2} x[n][c'][h][w]^2)^beta, channels outside [0, C) counting as 0: nn.LocalResponseNorm(size=5, alpha=1e-4, beta=0.75, k=2.0) (AlexNet's cross-channel normalization) on post-ReLU activations [16, 64, 128, 128]; one thread per output element on a 1-D launch, the channel recovered from a size_t index with / and %, a loop over the 5-channel window with a bounds test, powf.
#define LRN_SIZE 5

/* @optiml
   sizes:   N=16 C=64 H=128 W=128       # x 64 MiB in, y 64 MiB out
   check:   N=1 C=1 H=1 W=1; N=2 C=3 H=5 W=7; N=1 C=5 H=16 W=16; N=3 C=2 H=9 W=33; N=2 C=7 H=1 W=100; N=1 C=17 H=11 W=13
   x:       in  float[N*C*H*W] uniform(0,100)
   y:       out float[N*C*H*W]
   alpha:   1e-4
   beta:    0.75
   k:       2.0
   launch:  grid=cdiv(N*C*H*W,256) block=256
   flops:   16*N*C*H*W
   tol:     1e-5
*/
__global__ void local_response_norm(const float* __restrict__ x, float* __restrict__ y, int N, int C, int H, int W,
                                    float alpha, float beta, float k)
{
    size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t HW = (size_t)H * W;
    size_t total = (size_t)N * C * HW;
    if (idx >= total)
        return;

    int c = (int)((idx / HW) % C);
    size_t pix = idx % HW;
    size_t n = idx / (HW * C);
    const float* xn = x + n * C * HW;

    float sum = 0.0f;
    for (int cc = c - LRN_SIZE / 2; cc <= c + LRN_SIZE / 2; cc++) {
        if (cc < 0 || cc >= C)
            continue;
        float v = xn[(size_t)cc * HW + pix];
        sum += v * v;
    }
    float div = powf(k + alpha * sum / LRN_SIZE, beta);
    y[idx] = x[idx] / div;
}
