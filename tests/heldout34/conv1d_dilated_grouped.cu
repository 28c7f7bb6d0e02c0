// y[n][co][l] = bias[co] + sum_{j < Cin/G} sum_{t < 3} weight[co][j][t] * x[n][g Cin/G + j][l - 2 + 2 t] (g = co / (Cout/G), zero padding 2, dilation 2: the output keeps the length): `nn.Conv1d(256, 256, 3, padding=2, dilation=2, groups=8)` (a dilated, grouped temporal convolution, as a TCN / WaveNet-style residual block stacks them with growing dilation, here the dilation-2 layer) on [16, 256, 8192] NCL fp32, weight in PyTorch's [Cout][Cin/G][3] layout; ported from a CPU loop nest: one thread per output on a 1-D launch, the flat index split by % and /, early return, a `__device__ inline int idx3(n, c, l, C, L)` index helper, the kernel size, dilation and padding as `const int` locals, the group's channel range hoisted, a two-variable tap loop `for (int t = 0, pos = l - padding; t < ksize; ++t, pos += dilation)` with `continue` over the taps that fall in the padding.

__device__ inline int idx3(int n, int c, int l, int C, int L)
{
    return (n * C + c) * L + l;
}

/* @optiml
   sizes:   N=16 Cin=256 Cout=256 G=8 L=8192   # x 128 MiB in, weight 96 KiB in, y 128 MiB out; 6.4 GFLOP
   check:   N=1 Cin=1 Cout=1 G=1 L=1; N=2 Cin=4 Cout=6 G=2 L=7; N=1 Cin=6 Cout=3 G=3 L=33; N=3 Cin=8 Cout=8 G=8 L=20; N=1 Cin=16 Cout=32 G=4 L=129; N=2 Cin=5 Cout=10 G=1 L=3
   x:       in  float[N*Cin*L]
   weight:  in  float[Cout*(Cin/G)*3] uniform(-0.1,0.1)
   bias:    in  float[Cout] uniform(-0.1,0.1)
   y:       out float[N*Cout*L]
   launch:  grid=cdiv(N*Cout*L,256) block=256
   flops:   2*N*Cout*L*(Cin/G)*3
   tol:     1e-5
*/
__global__ void conv1d_dilated_grouped(const float* x, const float* weight, const float* bias, float* y, int N,
                                       int Cin, int Cout, int G, int L)
{
    const int ksize = 3;
    const int dilation = 2;
    const int padding = 2;

    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= N * Cout * L)
        return;
    const int l = i % L;
    const int co = (i / L) % Cout;
    const int n = i / (L * Cout);

    const int cin_per_group = Cin / G;
    const int cout_per_group = Cout / G;
    const int g = co / cout_per_group;
    const int ci_first = g * cin_per_group;

    float acc = bias[co];
    for (int j = 0; j < cin_per_group; ++j) {
        const int ci = ci_first + j;
        const float* w = weight + (co * cin_per_group + j) * ksize;
        for (int t = 0, pos = l - padding; t < ksize; ++t, pos += dilation) {
            if (pos < 0 || pos >= L)
                continue;
            acc += w[t] * x[idx3(n, ci, pos, Cin, L)];
        }
    }
    y[idx3(n, co, l, Cout, L)] = acc;
}
