// mean[c] = mean_{n,d,h,w} y[n, c, d, h, w], mean_sq[c] = mean_{n,d,h,w} y^2 with y = conv3d(x, weight, bias, padding=1): the batch moments that BatchNorm3d in training takes of a C3D-style stem convolution (`y = nn.Conv3d(3, 64, 3, padding=1)(x); y.mean(dim=(0, 2, 3, 4))`, `y.pow(2).mean(dim=(0, 2, 3, 4))`) on 8 clips of 16 x 112 x 112 RGB frames -> [64] and [64], fp32 data, fp64 moments; written naively: one thread per convolution output on a 1-D launch, the `long long` flat index decoded by % and / into (n, c, d, h, w), early return, the 3 x 3 x 3 window with `continue` for the zero padding, and two fp64 `atomicAdd`s (y / count and y * y / count) into the zero-initialised per-channel moments; `size_t` input offsets; x `uniform(0,1)` (`torch.rand`), weight and bias `uniform(-0.111,0.111)` (nn.Conv3d's bound 1/sqrt(3*27)).

/* @optiml
   sizes:   N=8 Cin=3 Cout=64 D=16 H=112 W=112   # x 18.4 MiB, weight 20.3 KiB, bias 256 B in, mean and mean_sq 512 B each in and out; 17.2 GFLOP
   check:   N=1 Cin=1 Cout=1 D=1 H=1 W=1; N=2 Cin=3 Cout=4 D=3 H=5 W=7; N=1 Cin=3 Cout=64 D=4 H=8 W=9; N=2 Cin=2 Cout=3 D=1 H=16 W=17; N=3 Cin=1 Cout=2 D=5 H=1 W=60; N=1 Cin=4 Cout=5 D=2 H=11 W=13; N=2 Cin=3 Cout=1 D=6 H=6 W=6
   x:       in    float[N*Cin*D*H*W] uniform(0,1)
   weight:  in    float[Cout*Cin*27] uniform(-0.111,0.111)
   bias:    in    float[Cout] uniform(-0.111,0.111)
   mean:    inout double[Cout] const(0)
   mean_sq: inout double[Cout] const(0)
   launch:  grid=cdiv(N*Cout*D*H*W,256) block=256
   flops:   54*N*Cout*D*H*W*Cin + 5*N*Cout*D*H*W
   tol:     1e-5
*/
__global__ void conv3d_bn_moments(const float* x, const float* weight, const float* bias, double* mean,
                                  double* mean_sq, int N, int Cin, int Cout, int D, int H, int W)
{
    long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    long long total = (long long)N * Cout * D * H * W;
    if (idx >= total)
        return;

    int ow = idx % W;
    int oh = (idx / W) % H;
    int od = (idx / ((long long)W * H)) % D;
    int co = (idx / ((long long)W * H * D)) % Cout;
    int n = idx / ((long long)W * H * D * Cout);

    float acc = bias[co];
    for (int ci = 0; ci < Cin; ++ci) {
        for (int kd = 0; kd < 3; ++kd) {
            int id = od + kd - 1;
            if (id < 0 || id >= D)
                continue;
            for (int kh = 0; kh < 3; ++kh) {
                int ih = oh + kh - 1;
                if (ih < 0 || ih >= H)
                    continue;
                for (int kw = 0; kw < 3; ++kw) {
                    int iw = ow + kw - 1;
                    if (iw < 0 || iw >= W)
                        continue;
                    size_t xi = (((size_t)(n * Cin + ci) * D + id) * H + ih) * W + iw;
                    acc += x[xi] * weight[(((co * Cin + ci) * 3 + kd) * 3 + kh) * 3 + kw];
                }
            }
        }
    }

    double count = (double)N * D * H * W;
    atomicAdd(&mean[co], (double)acc / count);
    atomicAdd(&mean_sq[co], (double)acc * acc / count);
}
