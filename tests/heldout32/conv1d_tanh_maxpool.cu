// y[n][co] = max_l tanh(bias[co] + sum_ci sum_{t < 3} weight[co][ci][t] * x[n][ci][l - 1 + t]) (zero padding 1): `F.max_pool1d(torch.tanh(self.conv(x)), kernel_size=L)` with nn.Conv1d(300, 256, 3, padding=1), the max-over-time pooling of a sentence CNN (Collobert et al.; Kim's CNN for sentence classification) in the style of KernelBench level 2's Conv + Tanh + Max models, on [256, 300, 512] (word2vec features of 512-token texts) -> [256, 256] fp32; one thread per (n, co) on a 1-D launch, the `int` flat index split by / and %, early return, a `template <int KSIZE>` kernel instantiated for 3 with the padding KSIZE / 2, the running max seeded with -1 (tanh's floor), `long` offsets, a pointer to the filter row.

/* @optiml
   sizes:   N=256 Cin=300 Cout=256 L=512   # x 150 MiB in, weight 900 KiB in, y 256 KiB out; 60.4 GFLOP
   check:   N=1 Cin=1 Cout=1 L=1; N=2 Cin=3 Cout=5 L=7; N=1 Cin=4 Cout=129 L=2; N=3 Cin=17 Cout=33 L=40; N=1 Cin=2 Cout=300 L=65; N=5 Cin=64 Cout=2 L=100
   template: KSIZE=3
   x:       in  float[N*Cin*L]
   weight:  in  float[Cout*Cin*KSIZE] uniform(-0.1,0.1)
   bias:    in  float[Cout] uniform(-0.1,0.1)
   y:       out float[N*Cout]
   launch:  grid=cdiv(N*Cout,128) block=128
   flops:   2*N*Cout*L*Cin*KSIZE + 6*N*Cout*L
   tol:     1e-5
*/
template <int KSIZE>
__global__ void conv1d_tanh_maxpool(const float* x, const float* weight, const float* bias, float* y,
                                    int N, int Cin, int Cout, int L)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= N * Cout)
        return;
    int n = i / Cout;
    int co = i % Cout;
    const int pad = KSIZE / 2;

    const float* wrow = weight + (long)co * Cin * KSIZE;
    const float* xn = x + (long)n * Cin * L;
    float best = -1.0f;                              // tanh never goes below -1
    for (int l = 0; l < L; l++) {
        float acc = bias[co];
        for (int ci = 0; ci < Cin; ci++) {
            for (int t = 0; t < KSIZE; t++) {
                int src = l - pad + t;
                if (src >= 0 && src < L)
                    acc += xn[(long)ci * L + src] * wrow[ci * KSIZE + t];
            }
        }
        best = fmaxf(best, tanhf(acc));
    }
    y[i] = best;
}

template __global__ void conv1d_tanh_maxpool<3>(const float*, const float*, const float*, float*, int, int, int, int);
