// out[n][c][o] = sum over k < 4 and j with j * 2 - 1 + k = o of x[n][c][j] * w[c][k], 0 <= j < L: depthwise transposed 1-D convolution (F.conv_transpose1d(x, w, stride=2, padding=1, groups=C), kernel 4, no bias), which doubles the length to 2L; one thread per output gathering its taps.
#define STRIDE 2
#define PAD 1
#define KSIZE 4

/* @optiml
   sizes:  N=8 C=512 L=8192             # 2^25 floats: 128 MiB in, 256 MiB out, 8 KiB of weights
   check:  N=1 C=1 L=1; N=2 C=3 L=5; N=1 C=7 L=300; N=3 C=2 L=2; N=1 C=100 L=33
   x:      in  float[N*C*L]
   w:      in  float[C*4]
   out:    out float[N*C*2*L]
   launch: grid=(cdiv(2*L,256),N*C) block=256
   flops:  4*N*C*L
*/
__global__ void conv_transpose1d_dw_s2(const float* x, const float* w, float* out, int N, int C, int L)
{
    const int Lout = (L - 1) * STRIDE - 2 * PAD + KSIZE;   // = 2 * L
    int o = blockIdx.x * blockDim.x + threadIdx.x;
    int plane = blockIdx.y;                               // n * C + c
    if (o >= Lout) return;
    int c = plane % C;
    const float* xp = x + (size_t)plane * L;

    float acc = 0.0f;
    for (int k = 0; k < KSIZE; ++k) {
        int num = o + PAD - k;
        if (num < 0 || num % STRIDE != 0)
            continue;
        int j = num / STRIDE;
        if (j >= L)
            continue;
        acc += xp[j] * w[c * KSIZE + k];
    }
    out[(size_t)plane * Lout + o] = acc;
}
