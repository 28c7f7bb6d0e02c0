// y[n][o] = b[o] + sum_i sum_j x1[n][i] * W[o][i][j] * x2[n][j]: `nn.Bilinear(128, 256, 64)` (`F.bilinear(x1, x2, W, b)`, weight [out, in1, in2]) over a batch of 2048 in fp32; one thread per output on a 2-D grid of 32 x 8 blocks (o on x, n on y), early return, the inner sum over j formed first and then scaled by x1[n][i], row pointers into x1, x2 and W.

/* @optiml
   sizes:   N=2048 I=128 J=256 O=64     # W 8 MiB in, x1 1 MiB in, x2 2 MiB in, y 0.5 MiB out; 8.6 GFLOP
   check:   N=1 I=1 J=1 O=1; N=3 I=5 J=7 O=2; N=9 I=16 J=33 O=40; N=33 I=3 J=1 O=9; N=2 I=31 J=64 O=33; N=17 I=8 J=8 O=1
   x1:      in  float[N*I]
   x2:      in  float[N*J]
   W:       in  float[O*I*J]
   bias:    in  float[O]
   y:       out float[N*O]
   launch:  grid=(cdiv(O,32),cdiv(N,8)) block=(32,8)
   flops:   2*N*O*I*J
   tol:     1e-4
*/
__global__ void bilinear_forward(const float* x1, const float* x2, const float* W, const float* bias, float* y,
                                 int N, int I, int J, int O)
{
    int o = blockIdx.x * blockDim.x + threadIdx.x;
    int n = blockIdx.y * blockDim.y + threadIdx.y;
    if (o >= O || n >= N)
        return;

    const float* a = x1 + (size_t)n * I;
    const float* c = x2 + (size_t)n * J;
    const float* w = W + (size_t)o * I * J;

    float acc = bias[o];
    for (int i = 0; i < I; i++) {
        float t = 0.0f;
        for (int j = 0; j < J; j++)
            t += w[i * J + j] * c[j];
        acc += a[i] * t;
    }
    y[n * O + o] = acc;
}
