// out[n][c] = gamma[c] * (mean_s h[n][c][s] - mu) / sqrt(var + eps) + beta[c] with h = hardswish(conv3d(x)) (valid K x K x K, bias) and (mu, var) the mean and biased variance of h over c's group of CPG channels and all voxels: KernelBench level 2's Conv3d_HardSwish_GroupNorm_Mean (`x = self.conv(x); x = F.hardswish(x); x = self.group_norm(x); x = torch.mean(x, dim=[2, 3, 4])`, nn.Conv3d(3, 16, 4), nn.GroupNorm(4, 16) with its affine weights as inputs) at KernelBench's sizes (batch 1024, 3 x 16 x 32 x 32 -> 16 x 13 x 29 x 29 -> [1024, 16]), NCDHW fp32; one block of 256 threads per (group, sample) on a 2-D grid, each thread striding over the output voxels and computing the group's CPG convolutions at each, accumulating per-channel sums in a `float csum[CPG]` register array and one sum of squares, then a `__shared__` tree over [CPG + 1][256] partials and thread 0 forming the group statistics (E[h^2] - mu^2) and the CPG outputs; `template <int CPG>` (4 channels a group), `#define NT 256`, `eps` an argument, the output extents computed in the kernel; x `uniform(0,1)` (`torch.rand`), weight and bias `uniform(-0.072,0.072)` (nn.Conv3d's bound 1/sqrt(3*64)), gamma `uniform(0.5,1.5)`, beta `uniform(-0.5,0.5)`.

#define NT 256

/* @optiml
   sizes:    N=1024 Cin=3 Cout=16 D=16 H=32 W=32 K=4   # x 192 MiB, weight 12 KiB, bias/gamma/beta 192 B in, out 64 KiB out; 69.9 GFLOP
   check:    N=1 Cin=1 Cout=4 D=1 H=1 W=1 K=1; N=2 Cin=3 Cout=8 D=4 H=5 W=6 K=3; N=3 Cin=2 Cout=4 D=6 H=9 W=17 K=4; N=1 Cin=3 Cout=16 D=8 H=20 W=20 K=2; N=2 Cin=1 Cout=12 D=3 H=3 W=3 K=3; N=1 Cin=2 Cout=4 D=5 H=12 W=33 K=1
   template: CPG=4
   x:        in  float[N*Cin*D*H*W] uniform(0,1)
   weight:   in  float[Cout*Cin*K*K*K] uniform(-0.072,0.072)
   bias:     in  float[Cout] uniform(-0.072,0.072)
   gamma:    in  float[Cout] uniform(0.5,1.5)
   beta:     in  float[Cout] uniform(-0.5,0.5)
   out:      out float[N*Cout]
   eps:      1e-5
   launch:   grid=(Cout/CPG,N) block=256
   flops:    2*N*Cout*(D-K+1)*(H-K+1)*(W-K+1)*Cin*K*K*K + 6*N*Cout*(D-K+1)*(H-K+1)*(W-K+1)
   tol:      1e-4
*/
template <int CPG>
__global__ void conv3d_hardswish_groupnorm_mean(const float* x, const float* weight, const float* bias,
                                                const float* gamma, const float* beta, float* out,
                                                int N, int Cin, int Cout, int D, int H, int W, int K, float eps)
{
    __shared__ float sh[CPG + 1][NT];    // per-channel sums, then the sum of squares

    int g = blockIdx.x;
    int n = blockIdx.y;
    int tid = threadIdx.x;
    int OD = D - K + 1, OH = H - K + 1, OW = W - K + 1;
    int S = OD * OH * OW;

    float csum[CPG];
    for (int c = 0; c < CPG; c++)
        csum[c] = 0.0f;
    float sq = 0.0f;

    for (int s = tid; s < S; s += NT) {
        int ow = s % OW;
        int oh = (s / OW) % OH;
        int od = s / (OW * OH);
        for (int c = 0; c < CPG; c++) {
            int co = g * CPG + c;
            float acc = bias[co];
            for (int ci = 0; ci < Cin; ci++)
                for (int kd = 0; kd < K; kd++)
                    for (int kh = 0; kh < K; kh++)
                        for (int kw = 0; kw < K; kw++)
                            acc += x[(((long)n * Cin + ci) * D + od + kd) * H * W + (oh + kh) * W + ow + kw] *
                                   weight[(((co * Cin + ci) * K + kd) * K + kh) * K + kw];
            float r6 = fminf(fmaxf(acc + 3.0f, 0.0f), 6.0f);
            float h = acc * r6 / 6.0f;
            csum[c] += h;
            sq += h * h;
        }
    }

    for (int c = 0; c < CPG; c++)
        sh[c][tid] = csum[c];
    sh[CPG][tid] = sq;
    __syncthreads();
    for (int stride = NT / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            for (int c = 0; c <= CPG; c++)
                sh[c][tid] += sh[c][tid + stride];
        __syncthreads();
    }

    if (tid == 0) {
        float total = 0.0f;
        for (int c = 0; c < CPG; c++)
            total += sh[c][0];
        float count = (float)CPG * S;
        float mu = total / count;
        float var = sh[CPG][0] / count - mu * mu;
        float rstd = 1.0f / sqrtf(var + eps);
        for (int c = 0; c < CPG; c++) {
            int co = g * CPG + c;
            out[n * Cout + co] = gamma[co] * (sh[c][0] / S - mu) * rstd + beta[co];
        }
    }
}
