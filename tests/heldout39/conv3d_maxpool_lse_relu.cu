// out[n][0][pd][ph][pw] = relu(log(sum_co exp(max_{2x2x2 window} conv[n][co]))) with conv = nn.Conv3d(Cin, Cout, 3, stride=1, padding=1) (bias, zero padding) and the window of nn.MaxPool3d(2, 2) (floor mode): KernelBench level 2's Conv3d_Max_LogSumExp_ReLU (`x = self.conv(x); x = self.max_pool(x); x = torch.logsumexp(x, dim=1, keepdim=True); x = torch.relu(x)`) with KernelBench's channels (32 -> 64) and batch 4 on a 16 x 64 x 64 volume (its 32 x 128 x 128 volume quartered), NCDHW fp32; one thread per pooled output voxel on a 1-D launch, the `long long` flat index decoded by % and / into (pw, ph, pd, n), early return, a loop over the 64 output channels that computes the eight convolution sums of the pooling window inside it (a `__device__` helper with a `continue` for taps outside the volume), keeps their maximum and folds it into a running (online) logsumexp over the channels; `#define KS 3`, `PAD 1`, `POOL 2`; x `uniform(0,1)` (`torch.rand`), weight and bias `uniform(-0.034,0.034)` (nn.Conv3d's bound 1/sqrt(32*27)).

#define KS 3
#define PAD 1
#define POOL 2

__device__ float conv3d_at(const float* x, const float* weight, const float* bias, int n, int co,
                           int z, int yy, int xx, int Cin, int D, int H, int W)
{
    float acc = bias[co];
    for (int ci = 0; ci < Cin; ci++) {
        const float* xc = x + ((long long)n * Cin + ci) * D * H * W;
        const float* wc = weight + ((long long)co * Cin + ci) * KS * KS * KS;
        for (int kd = 0; kd < KS; kd++) {
            int iz = z - PAD + kd;
            if (iz < 0 || iz >= D)
                continue;
            for (int kh = 0; kh < KS; kh++) {
                int iy = yy - PAD + kh;
                if (iy < 0 || iy >= H)
                    continue;
                for (int kw = 0; kw < KS; kw++) {
                    int ix = xx - PAD + kw;
                    if (ix < 0 || ix >= W)
                        continue;
                    acc += xc[((long long)iz * H + iy) * W + ix] * wc[(kd * KS + kh) * KS + kw];
                }
            }
        }
    }
    return acc;
}

/* @optiml
   sizes:   N=4 Cin=32 Cout=64 D=16 H=64 W=64   # x 32 MiB, weight 216 KiB, bias 256 B in, out 128 KiB out; 29.0 GFLOP
   check:   N=1 Cin=1 Cout=1 D=2 H=2 W=2; N=1 Cin=2 Cout=3 D=3 H=5 W=7; N=2 Cin=3 Cout=5 D=4 H=9 W=6; N=1 Cin=4 Cout=16 D=2 H=16 W=33; N=3 Cin=1 Cout=2 D=5 H=3 W=11; N=1 Cin=2 Cout=64 D=2 H=4 W=4; N=2 Cin=1 Cout=1 D=7 H=2 W=40
   x:       in  float[N*Cin*D*H*W] uniform(0,1)
   weight:  in  float[Cout*Cin*27] uniform(-0.034,0.034)
   bias:    in  float[Cout] uniform(-0.034,0.034)
   out:     out float[N*(D/2)*(H/2)*(W/2)]
   launch:  grid=cdiv(N*(D/2)*(H/2)*(W/2),128) block=128
   flops:   2*N*Cout*(D/2)*(H/2)*(W/2)*8*Cin*27 + 4*N*Cout*(D/2)*(H/2)*(W/2)
   tol:     1e-5
*/
__global__ void conv3d_maxpool_lse_relu(const float* x, const float* weight, const float* bias, float* out,
                                        int N, int Cin, int Cout, int D, int H, int W)
{
    int PD = D / POOL, PH = H / POOL, PW = W / POOL;
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long total = (long long)N * PD * PH * PW;
    if (idx >= total)
        return;

    int pw = idx % PW;
    long long t = idx / PW;
    int ph = t % PH;
    t /= PH;
    int pd = t % PD;
    int n = t / PD;

    float m = -INFINITY;                 // running logsumexp over the channels: m + log(s)
    float s = 0.0f;
    for (int co = 0; co < Cout; co++) {
        float v = -INFINITY;
        for (int dz = 0; dz < POOL; dz++)
            for (int dy = 0; dy < POOL; dy++)
                for (int dx = 0; dx < POOL; dx++)
                    v = fmaxf(v, conv3d_at(x, weight, bias, n, co, pd * POOL + dz, ph * POOL + dy,
                                           pw * POOL + dx, Cin, D, H, W));
        if (v > m) {
            s = s * expf(m - v) + 1.0f;
            m = v;
        } else {
            s += expf(v - m);
        }
    }
    float r = m + logf(s);
    out[idx] = r > 0.0f ? r : 0.0f;
}
