// y[n][co][t] = b[co] + sum_ci sum_k w[co][ci][k] * x[n][ci][2t + 3k - 6] (zero outside [0, L)): `nn.Conv1d(64, 128, kernel_size=5, stride=2, padding=6, dilation=3)` with bias (KernelBench level 1's strided, dilated 1-D convolution, here with the padding that keeps cdiv(L, 2) outputs) on [8, 64, 16384] NCL fp32; one thread per output on a 2-D grid (positions on x, blockIdx.y = n * Cout + co), #define KSIZE, STRIDE, PAD and DIL, Lout computed in the kernel, one combined bounds test per tap, row pointers into x and the weight.
#define KSIZE 5
#define STRIDE 2
#define PAD 6
#define DIL 3

/* @optiml
   sizes:   N=8 Cin=64 Cout=128 L=16384   # x 32 MiB in, y 32 MiB out, weight 160 KiB in; 5.4 GFLOP
   check:   N=1 Cin=1 Cout=1 L=1; N=2 Cin=3 Cout=5 L=7; N=1 Cin=4 Cout=2 L=259; N=3 Cin=2 Cout=3 L=2; N=1 Cin=5 Cout=7 L=33; N=1 Cin=1 Cout=4 L=12
   x:       in  float[N*Cin*L]
   weight:  in  float[Cout*Cin*5]
   bias:    in  float[Cout]
   y:       out float[N*Cout*((L+1)//2)]
   launch:  grid=(cdiv((L+1)//2,128),N*Cout) block=128
   flops:   10*N*Cout*Cin*((L+1)//2)
   tol:     1e-4
*/
__global__ void conv1d_strided_dilated(const float* x, const float* weight, const float* bias, float* y,
                                       int N, int Cin, int Cout, int L)
{
    const int Lout = (L + 2 * PAD - DIL * (KSIZE - 1) - 1) / STRIDE + 1;
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y;                 // n * Cout + co
    if (t >= Lout)
        return;
    const int n = row / Cout;
    const int co = row % Cout;

    float acc = bias[co];
    for (int ci = 0; ci < Cin; ++ci) {
        const float* xr = x + ((size_t)n * Cin + ci) * L;
        const float* wr = weight + ((size_t)co * Cin + ci) * KSIZE;
        for (int k = 0; k < KSIZE; ++k) {
            int pos = t * STRIDE - PAD + k * DIL;
            if (pos >= 0 && pos < L)
                acc += xr[pos] * wr[k];
        }
    }
    y[(size_t)row * Lout + t] = acc;
}
