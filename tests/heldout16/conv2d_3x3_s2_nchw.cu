// y[n][co][oy][ox] = bias[co] + sum over ci, ky, kx of w[co][ci][ky][kx] * x[n][ci][2*oy - 1 + ky][2*ox - 1 + kx] (zero outside the image): nn.Conv2d(Cin, Cout, 3, stride=2, padding=1) over N x Cin x H x W, output OH = (H-1)/2 + 1 by OW = (W-1)/2 + 1; one thread per output element.
/* @optiml
   sizes:  N=8 Cin=64 Cout=128 H=256 W=256   # 128 MiB in, 64 MiB out, 288 KiB of weights
   check:  N=1 Cin=1 Cout=1 H=1 W=1; N=2 Cin=3 Cout=5 H=7 W=9; N=1 Cin=4 Cout=2 H=16 W=33; N=3 Cin=2 Cout=3 H=2 W=1; N=1 Cin=16 Cout=8 H=31 W=30
   x:      in  float[N*Cin*H*W]
   w:      in  float[Cout*Cin*3*3]
   bias:   in  float[Cout]
   y:      out float[N*Cout*((H-1)//2+1)*((W-1)//2+1)]
   launch: grid=(cdiv((W-1)//2+1,16),cdiv((H-1)//2+1,16),N*Cout) block=(16,16)
   flops:  18*N*Cout*Cin*((H-1)//2+1)*((W-1)//2+1)
   tol:    1e-4
*/
__global__ void conv2d_3x3_s2(const float* __restrict__ x, const float* __restrict__ w,
                              const float* __restrict__ bias, float* __restrict__ y,
                              int N, int Cin, int Cout, int H, int W)
{
    const int stride = 2, pad = 1;
    const int OH = (H + 2 * pad - 3) / stride + 1;
    const int OW = (W + 2 * pad - 3) / stride + 1;

    int ox = blockIdx.x * blockDim.x + threadIdx.x;
    int oy = blockIdx.y * blockDim.y + threadIdx.y;
    int n = blockIdx.z / Cout;
    int co = blockIdx.z % Cout;
    if (ox >= OW || oy >= OH) return;

    float acc = bias[co];
    for (int ci = 0; ci < Cin; ci++) {
        const float* xp = x + ((size_t)n * Cin + ci) * H * W;
        const float* wp = w + ((size_t)co * Cin + ci) * 9;
        for (int ky = 0; ky < 3; ky++) {
            int iy = oy * stride - pad + ky;
            if (iy < 0 || iy >= H) continue;
            for (int kx = 0; kx < 3; kx++) {
                int ix = ox * stride - pad + kx;
                if (ix < 0 || ix >= W) continue;
                acc += wp[ky * 3 + kx] * xp[iy * W + ix];
            }
        }
    }
    y[(((size_t)n * Cout + co) * OH + oy) * OW + ox] = acc;
}
