// y[o][l] = bias[o] + sum over c < Cin, k < 5 of w[o][c][k] * x[c][l+k-2], x zero outside [0, L): 1-D convolution of a Cin x L signal into Cout channels, kernel 5, stride 1, "same" zero padding 2 (F.conv1d(x, w, bias, padding=2)).
#define KW 5
#define PAD (KW / 2)

/* @optiml
   sizes:  Cin=8 Cout=16 L=2097152      # 64 MiB in, 128 MiB out, 2.5 KiB of weights
   check:  Cin=1 Cout=1 L=1; Cin=3 Cout=2 L=7; Cin=2 Cout=5 L=1000; Cin=4 Cout=3 L=2; Cin=1 Cout=7 L=4
   x:      in  float[Cin*L]
   w:      in  float[Cout*Cin*5]
   bias:   in  float[Cout]
   y:      out float[Cout*L]
   launch: grid=(cdiv(L,128),Cout) block=128
   flops:  2*Cout*Cin*5*L
   tol:    1e-4
*/
__global__ void conv1d_multi_out(const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ bias,
                                 float* __restrict__ y, int Cin, int Cout, int L)
{
    int l = blockIdx.x * blockDim.x + threadIdx.x;
    int o = blockIdx.y;
    if (l >= L) return;
    float acc = bias[o];
    for (int c = 0; c < Cin; ++c) {
        const float* xc = x + (size_t)c * L;
        const float* wk = w + (o * Cin + c) * KW;
#pragma unroll
        for (int k = 0; k < KW; ++k) {
            int src = l + k - PAD;
            if (src >= 0 && src < L)
                acc += wk[k] * xc[src];
        }
    }
    y[(size_t)o * L + l] = acc;
}
