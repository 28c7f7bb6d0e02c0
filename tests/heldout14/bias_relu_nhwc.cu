// y[n][h][w][c] = max(x[n][h][w][c] + bias[c], 0): per-channel bias and ReLU over a channels-last (NHWC) fp32 tensor.
/* @optiml
   sizes:  N=32 H=64 W=64 C=256         # 2^25 floats: 128 MiB in, 128 MiB out, 1 KiB of bias
   check:  N=1 H=1 W=1 C=1; N=2 H=3 W=5 C=7; N=1 H=17 W=9 C=64; N=3 H=1 W=1 C=1000; N=2 H=10 W=10 C=3
   x:      in  float[N*H*W*C]
   bias:   in  float[C]
   y:      out float[N*H*W*C]
   launch: grid=cdiv(N*H*W*C,256) block=256
   flops:  2*N*H*W*C
*/
__global__ void bias_relu_nhwc(const float* __restrict__ x, const float* __restrict__ bias, float* __restrict__ y,
                               int N, int H, int W, int C)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    long total = (long)N * H * W * C;
    if (i < total) {
        int c = i % C;
        y[i] = fmaxf(x[i] + bias[c], 0.0f);
    }
}
