// y[n][t][co] = b[co] + sum_{k < 3} sum_ci w[co][ci][k] * x[n][2 t - 1 + k][ci] (zero padding 1): Whisper's second audio-encoder convolution, `nn.Conv1d(384, 384, kernel_size=3, stride=2, padding=1)` with bias (whisper-tiny; KernelBench level 1's strided, padded 1-D convolution), run on channels-last activations as the transformer around it holds them (`conv(x.transpose(1, 2)).transpose(1, 2)`), [4, 3000, 384] NLC -> [4, 1500, 384] fp32, the weight in PyTorch's [Cout][Cin][3] layout; one thread per output on a 2-D grid of 128 threads (output channels on x so the stores coalesce, blockIdx.y = n * L_out + t), early return, #define K, STRIDE and PAD, L_out computed in the kernel from PyTorch's formula, `continue` on the padded taps, row pointers to the input step and the output channel's filter.
#define K 3
#define STRIDE 2
#define PAD 1

/* @optiml
   sizes:   N=4 L=3000 Cin=384 Cout=384   # x 17.6 MiB in, y 8.8 MiB out, weight 1.7 MiB in; 5.3 GFLOP
   check:   N=1 L=1 Cin=1 Cout=1; N=2 L=7 Cin=3 Cout=5; N=1 L=2 Cin=4 Cout=129; N=3 L=10 Cin=2 Cout=3; N=1 L=33 Cin=17 Cout=2; N=2 L=4 Cin=1 Cout=7
   x:       in  float[N*L*Cin]
   weight:  in  float[Cout*Cin*3]
   bias:    in  float[Cout]
   y:       out float[N*((L-1)//2+1)*Cout]
   launch:  grid=(cdiv(Cout,128),N*((L-1)//2+1)) block=128
   flops:   6*N*((L-1)//2+1)*Cout*Cin
   tol:     1e-4
*/
__global__ void conv1d_nlc_stride2(const float* x, const float* weight, const float* bias, float* y,
                                   int N, int L, int Cin, int Cout)
{
    int Lout = (L + 2 * PAD - K) / STRIDE + 1;
    int co = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y;                  // n * Lout + t
    if (co >= Cout) return;
    int n = row / Lout;
    int t = row % Lout;

    const float* wrow = weight + (size_t)co * Cin * K;
    float acc = bias[co];
    for (int k = 0; k < K; ++k) {
        int l = t * STRIDE - PAD + k;
        if (l < 0 || l >= L) continue;
        const float* xrow = x + ((size_t)n * L + l) * Cin;
        for (int ci = 0; ci < Cin; ++ci)
            acc += xrow[ci] * wrow[ci * K + k];
    }
    y[(size_t)row * Cout + co] = acc;
}
