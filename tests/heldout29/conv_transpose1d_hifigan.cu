// y[n][co][t] = b[co] + sum_ci sum over (l, k) with t = 8 l - 4 + k, k < 16 of x[n][ci][l] * w[ci][co][k]: HiFi-GAN's first up-sampling layer, `nn.ConvTranspose1d(512, 256, kernel_size=16, stride=8, padding=4)` with bias (KernelBench level 1's strided transposed 1-D convolution family), [4, 512, 256] mel frames -> [4, 256, 2048] NCL fp32; gather form, one thread per output on a 2-D grid of 256 threads (positions on x, blockIdx.y = n * Cout + co), #define KSIZE, STRIDE and PAD, Lout computed in the kernel, the two contributing taps walked from k = (t + PAD) % STRIDE, the weight in PyTorch's [Cin][Cout][16] layout read a Cout * 16 stride apart per input channel.
#define KSIZE 16
#define STRIDE 8
#define PAD 4

/* @optiml
   sizes:   N=4 Cin=512 Cout=256 L=256   # x 2 MiB in, y 8 MiB out, weight 8 MiB in; 4.3 GFLOP (scatter count)
   check:   N=1 Cin=1 Cout=1 L=1; N=2 Cin=3 Cout=5 L=7; N=1 Cin=4 Cout=2 L=33; N=3 Cin=2 Cout=3 L=2; N=1 Cin=5 Cout=7 L=40; N=1 Cin=1 Cout=4 L=3
   x:       in  float[N*Cin*L]
   weight:  in  float[Cin*Cout*16]
   bias:    in  float[Cout]
   y:       out float[N*Cout*8*L]
   launch:  grid=(cdiv(8*L,256),N*Cout) block=256
   flops:   32*N*Cin*Cout*L
   tol:     1e-4
*/
__global__ void conv_transpose1d_hifigan(const float* x, const float* weight, const float* bias, float* y,
                                         int N, int Cin, int Cout, int L)
{
    const int Lout = (L - 1) * STRIDE - 2 * PAD + KSIZE;
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y;
    if (t >= Lout) return;
    int n = row / Cout, co = row % Cout;

    float acc = bias[co];
    for (int k = (t + PAD) % STRIDE; k < KSIZE; k += STRIDE) {
        int l = (t + PAD - k) / STRIDE;
        if (l < 0 || l >= L) continue;
        for (int ci = 0; ci < Cin; ++ci)
            acc += x[((size_t)n * Cin + ci) * L + l] * weight[((size_t)ci * Cout + co) * KSIZE + k];
    }
    y[(size_t)row * Lout + t] = acc;
}
