// y[n][co][t] = b[co] + sum_ci sum over (l, k) with t = 3 l - 2 + 2 k, k < 5 of x[n][ci][l] * w[ci][co][k]: a strided, dilated transposed 1-D convolution, `nn.ConvTranspose1d(128, 64, kernel_size=5, stride=3, padding=2, dilation=2)` with bias (KernelBench level 1's dilated transposed 1-D convolution, here also strided and padded), [8, 128, 4096] -> [8, 64, 12290] NCL fp32; gather form, a `template <typename T>` kernel instantiated for float with a T accumulator, a `long` grid-stride loop capped at 4096 blocks of 256, the flat index decoded by % and / into (n, co, t), the output length L_out = 3 L + 2 computed in the kernel from PyTorch's formula, a tap kept only when `(t + PAD - k * DIL) % STRIDE == 0`, #define STRIDE, PAD, DIL and KSIZE.
#define KSIZE 5
#define STRIDE 3
#define PAD 2
#define DIL 2

/* @optiml
   sizes:   N=8 Cin=128 Cout=64 L=4096   # x 16 MiB in, y 24 MiB out, weight 160 KiB in; 2.7 GFLOP (scatter count)
   check:   N=1 Cin=1 Cout=1 L=1; N=2 Cin=3 Cout=4 L=7; N=1 Cin=5 Cout=2 L=90; N=3 Cin=2 Cout=3 L=2; N=1 Cin=1 Cout=7 L=41; N=2 Cin=6 Cout=1 L=13; N=1 Cin=1 Cout=2 L=174763
   template: T=float
   x:       in  float[N*Cin*L]
   weight:  in  float[Cin*Cout*5]
   bias:    in  float[Cout]
   y:       out float[N*Cout*(3*L+2)]
   launch:  grid=min(cdiv(N*Cout*(3*L+2),256),4096) block=256
   flops:   10*N*Cin*Cout*L
   tol:     1e-4
*/
template <typename T>
__global__ void conv_transpose1d_dilated(const T* x, const T* weight, const T* bias, T* y,
                                         int N, int Cin, int Cout, int L)
{
    const int Lout = (L - 1) * STRIDE - 2 * PAD + DIL * (KSIZE - 1) + 1;
    const long total = (long)N * Cout * Lout;

    for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += (long)gridDim.x * blockDim.x) {
        int t = (int)(i % Lout);
        int co = (int)((i / Lout) % Cout);
        int n = (int)(i / ((long)Lout * Cout));

        T acc = bias[co];
        for (int k = 0; k < KSIZE; k++) {
            int num = t + PAD - k * DIL;
            if (num < 0 || num % STRIDE != 0)
                continue;
            int l = num / STRIDE;
            if (l >= L)
                continue;
            for (int ci = 0; ci < Cin; ci++)
                acc += x[((long)n * Cin + ci) * L + l] * weight[((long)ci * Cout + co) * KSIZE + k];
        }
        y[i] = acc;
    }
}

template __global__ void conv_transpose1d_dilated<float>(const float*, const float*, const float*, float*,
                                                         int, int, int, int);
