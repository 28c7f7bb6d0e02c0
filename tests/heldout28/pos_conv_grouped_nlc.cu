// y[b][t][c] = bias[c] + sum_j<C/G sum_k<K w[c][j][k] * x[b][t + k - K/2][g(c) * C/G + j], g(c) = c / (C/G) (zero outside [0, T), the extra last output of an even kernel dropped): wav2vec 2.0 / HuBERT's convolutional relative position embedding before its GELU (`nn.Conv1d(768, 768, kernel_size=128, padding=64, groups=16)` then `SamePad`, run on [B, T, C] hidden states through `transpose(1, 2)`) on one 512-frame sequence, fp32; the hidden states and the output kept in [B, T, C] (NLC), one thread per output on a 3-D grid (channels on x, blockIdx.y = t, blockIdx.z = b), the kernel width K and the groups G runtime sizes, the whole body inside one bounds if, `continue` on the taps outside the sequence, __restrict__ on every pointer.

/* @optiml
   sizes:   B=1 T=512 C=768 K=128 G=16   # x 1.5 MiB in, y 1.5 MiB out, weight 18 MiB in; 4.8 GFLOP
   check:   B=1 T=1 C=1 K=1 G=1; B=2 T=7 C=6 K=4 G=2; B=1 T=33 C=8 K=5 G=4; B=1 T=3 C=4 K=8 G=1; B=3 T=10 C=9 K=2 G=3; B=1 T=12 C=130 K=6 G=10
   x:       in  float[B*T*C]
   w:       in  float[C*(C//G)*K]
   bias:    in  float[C]
   y:       out float[B*T*C]
   launch:  grid=(cdiv(C,128),T,B) block=128
   flops:   2*B*T*C*C*K/G
   tol:     1e-4
*/
__global__ void pos_conv_grouped_nlc(const float* __restrict__ x, const float* __restrict__ w,
                                     const float* __restrict__ bias, float* __restrict__ y,
                                     int B, int T, int C, int K, int G)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int t = blockIdx.y;
    int b = blockIdx.z;
    if (c < C) {
        int cpg = C / G;
        int c0 = (c / cpg) * cpg;               // first input channel of c's group
        const float* wc = w + (size_t)c * cpg * K;
        float acc = bias[c];
        for (int k = 0; k < K; ++k) {
            int src = t + k - K / 2;
            if (src < 0 || src >= T)
                continue;
            const float* xt = x + ((size_t)b * T + src) * C + c0;
            for (int j = 0; j < cpg; ++j)
                acc += xt[j] * wc[j * K + k];
        }
        y[((size_t)b * T + t) * C + c] = acc;
    }
}
