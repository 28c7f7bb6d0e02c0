// with xhat = (x - mean_c) * rstd_c over the batch statistics of channel c (biased variance): dbias[c] = sum dy, dweight[c] = sum dy * xhat, dx = weight[c] * rstd_c * (dy - dbias[c] / M - xhat * dweight[c] / M), M = N*H*W: the backward of nn.BatchNorm2d in training mode (native_batch_norm_backward with the statistics recomputed from x) on NCHW; one thread per channel walking its N planes four times (mean, variance, the two gradient sums, dx).
/* @optiml
   sizes:   N=32 C=256 HW=3136          # 56 x 56 maps: x 98 MiB, dy 98 MiB in, dx 98 MiB out, weight / dweight / dbias 1 KiB each
   check:   N=1 C=1 HW=5; N=2 C=3 HW=7; N=4 C=5 HW=64; N=1 C=17 HW=100; N=3 C=2 HW=1; N=8 C=4 HW=49
   x:       in  float[N*C*HW]
   dy:      in  float[N*C*HW]
   weight:  in  float[C] uniform(0.5,1.5)
   dx:      out float[N*C*HW]
   dweight: out float[C]
   dbias:   out float[C]
   eps:     1e-5
   launch:  grid=cdiv(C,64) block=64
   flops:   12*N*C*HW
   tol:     1e-4
*/
__global__ void batch_norm_backward(const float* x, const float* dy, const float* weight, float* dx, float* dweight,
                                    float* dbias, float eps, int N, int C, int HW)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= C) return;

    float M = (float)N * HW;

    float sum = 0.0f;
    for (int n = 0; n < N; n++) {
        const float* xp = x + ((long)n * C + c) * HW;
        for (int i = 0; i < HW; i++)
            sum += xp[i];
    }
    float mean = sum / M;

    float sq = 0.0f;
    for (int n = 0; n < N; n++) {
        const float* xp = x + ((long)n * C + c) * HW;
        for (int i = 0; i < HW; i++) {
            float d = xp[i] - mean;
            sq += d * d;
        }
    }
    float rstd = 1.0f / sqrtf(sq / M + eps);

    float sum_dy = 0.0f, sum_dy_xhat = 0.0f;
    for (int n = 0; n < N; n++) {
        long off = ((long)n * C + c) * HW;
        for (int i = 0; i < HW; i++) {
            sum_dy += dy[off + i];
            sum_dy_xhat += dy[off + i] * (x[off + i] - mean) * rstd;
        }
    }

    float k = weight[c] * rstd;
    for (int n = 0; n < N; n++) {
        long off = ((long)n * C + c) * HW;
        for (int i = 0; i < HW; i++) {
            float xhat = (x[off + i] - mean) * rstd;
            dx[off + i] = k * (dy[off + i] - sum_dy / M - xhat * sum_dy_xhat / M);
        }
    }
    dweight[c] = sum_dy_xhat;
    dbias[c] = sum_dy;
}
