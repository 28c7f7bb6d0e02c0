// y[n][co][l] = bias[co] + sum over ci < C/G, k < 3 of w[co][ci][k] * x[n][g*(C/G) + ci][l + k - 1], g = co / (C/G): a grouped 1-D convolution (nn.Conv1d(C, C, 3, padding=1, groups=G)), C channels in and out, zero padding 1; one thread per output element.
#define KSIZE 3
#define PAD 1

/* @optiml
   sizes:  N=8 C=256 G=8 L=8192         # 2^24 floats: 64 MiB in, 64 MiB out, 96 KiB of weights
   check:  N=1 C=1 G=1 L=1; N=2 C=4 G=2 L=5; N=1 C=6 G=3 L=33; N=3 C=8 G=8 L=7; N=2 C=12 G=4 L=100; N=1 C=5 G=1 L=2
   x:      in  float[N*C*L]
   w:      in  float[C*(C/G)*3]
   bias:   in  float[C]
   y:      out float[N*C*L]
   launch: grid=(cdiv(L,128),N*C) block=128
   flops:  2*N*C*L*(C/G)*3
   tol:    1e-4
*/
__global__ void conv1d_grouped(const float* x, const float* w, const float* bias, float* y, int N, int C, int G, int L)
{
    int l = blockIdx.x * blockDim.x + threadIdx.x;
    int nc = blockIdx.y;                 // n * C + co
    if (l >= L) return;
    int n = nc / C, co = nc % C;
    int cpg = C / G;                     // channels per group
    int g = co / cpg;

    float acc = bias[co];
    for (int ci = 0; ci < cpg; ci++) {
        const float* xrow = x + ((size_t)n * C + g * cpg + ci) * L;
        const float* wk = w + ((size_t)co * cpg + ci) * KSIZE;
        for (int k = 0; k < KSIZE; k++) {
            int pos = l + k - PAD;
            if (pos < 0 || pos >= L) continue;
            acc += wk[k] * xrow[pos];
        }
    }
    y[(size_t)nc * L + l] = acc;
}
