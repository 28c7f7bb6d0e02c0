// out[n][co] = mean_t relu(bias[co] + sum_ci sum_{k < 5} w[co][ci][k] * x[n][ci][2 t - 2 + k]) (zero padding 2, stride 2): a 1-D CNN's last block and head, `F.adaptive_avg_pool1d(F.relu(self.conv(x)), 1).squeeze(-1)` with nn.Conv1d(64, 256, 5, stride=2, padding=2) (global average pooling over time, as audio and ECG classifiers end), in the style of KernelBench level 2's Conv + activation + pooling models, on [256, 64, 2000] -> [256, 256, 1000] -> [256, 256] fp32; one thread per (n, co) output on a 2-D grid (channels on x in blocks of 64, blockIdx.y = n), early return, the output length computed in the kernel, a loop over time with the convolution (a bounds test per tap) inside it and a running sum, file-scope `constexpr int` kernel width, stride and padding, `const` locals; x `uniform(-1,1)`, w and bias `uniform(-0.056,0.056)` (nn.Conv1d's bound 1/sqrt(64*5)).

constexpr int KW = 5;
constexpr int STRIDE = 2;
constexpr int PAD = 2;

/* @optiml
   sizes:   N=256 C_in=64 C_out=256 L=2000   # x 125 MiB, w 320 KiB, bias 1 KiB in, out 256 KiB out; 42.1 GFLOP
   check:   N=1 C_in=1 C_out=1 L=1; N=2 C_in=3 C_out=5 L=2; N=3 C_in=2 C_out=65 L=9; N=1 C_in=17 C_out=3 L=100; N=5 C_in=4 C_out=130 L=31; N=2 C_in=1 C_out=1 L=1001; N=4 C_in=8 C_out=64 L=6
   x:       in  float[N*C_in*L]
   w:       in  float[C_out*C_in*5] uniform(-0.056,0.056)
   bias:    in  float[C_out] uniform(-0.056,0.056)
   out:     out float[N*C_out]
   launch:  grid=(cdiv(C_out,64),N) block=64
   flops:   2*N*C_out*((L-1)/2+1)*C_in*5 + 2*N*C_out*((L-1)/2+1)
   tol:     1e-5
*/
__global__ void conv1d_relu_global_avgpool(const float* x, const float* w, const float* bias, float* out,
                                           int N, int C_in, int C_out, int L)
{
    const int co = blockIdx.x * blockDim.x + threadIdx.x;
    const int n = blockIdx.y;
    if (co >= C_out)
        return;

    const int L_out = (L + 2 * PAD - KW) / STRIDE + 1;
    const float* xn = x + (long)n * C_in * L;
    const float* wc = w + (long)co * C_in * KW;

    float total = 0.0f;
    for (int t = 0; t < L_out; t++) {
        float v = bias[co];
        for (int ci = 0; ci < C_in; ci++) {
            for (int k = 0; k < KW; k++) {
                const int pos = t * STRIDE - PAD + k;
                if (pos >= 0 && pos < L)
                    v += xn[(long)ci * L + pos] * wc[ci * KW + k];
            }
        }
        total += fmaxf(v, 0.0f);
    }
    out[n * C_out + co] = total / L_out;
}
