// out[r][o] = max over t < 4 of x[r][2*o - 2 + 3*t], positions outside [0, L) skipped (implicit -inf padding): 1-D max pooling with kernel_size 4, stride 2, padding 2, dilation 3 (nn.MaxPool1d(4, 2, 2, 3)) over the N*C rows of an N x C x L tensor; Lout = (L - 6) / 2 + 1.
#include <cstdint>
#include <math.h>

#define KSIZE 4
#define STRIDE 2
#define PAD 2
#define DIL 3

/* @optiml
   sizes:  N=64 C=64 L=8192             # 2^25 floats: 128 MiB in, 64 MiB out
   check:  N=1 C=1 L=6; N=1 C=1 L=7; N=2 C=3 L=8; N=3 C=5 L=101; N=1 C=7 L=1000; N=4 C=1 L=13
   x:      in  float[N*C*L]
   out:    out float[N*C*((L-6)//2+1)]
   launch: grid=cdiv(N*C*((L-6)//2+1),256) block=256
*/
__global__ void maxpool1d_dilated(const float* x, float* out, int N, int C, int L)
{
    const int Lout = (L + 2 * PAD - DIL * (KSIZE - 1) - 1) / STRIDE + 1;
    int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= (int64_t)N * C * Lout)
        return;
    int o = idx % Lout;
    int64_t r = idx / Lout;
    const float* row = x + r * L;

    float m = -INFINITY;
    int start = o * STRIDE - PAD;
    for (int t = 0; t < KSIZE; t++) {
        int pos = start + t * DIL;
        if (pos < 0 || pos >= L)
            continue;
        m = fmaxf(m, row[pos]);
    }
    out[idx] = m;
}
