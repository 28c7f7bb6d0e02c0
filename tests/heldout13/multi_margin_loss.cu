// loss[0] += (1/N) * sum over i of (1/C) * sum over j != y_i of max(0, margin - x[i][y_i] + x[i][j]): multi-class hinge loss (F.multi_margin_loss, p=1, reduction "mean"; loss must start at 0), one thread per sample and one atomicAdd per sample.
/* @optiml
   sizes:  N=65536 C=1000               # 250 MiB of scores, 512 KiB of int64 targets
   check:  N=1 C=1000; N=5 C=1001; N=37 C=1000; N=300 C=1024
   x:      in    float[N*C]
   target: in    int64[N] range(0,1000)  # every check size has C >= 1000
   loss:   inout float[1] const(0)      # accumulator: zeroed before each run
   margin: 1.0
   launch: grid=cdiv(N,128) block=128
   flops:  4*N*C
   tol:    1e-3                         # up to 65536 fp32 atomics in arbitrary order
*/
extern "C" __global__ void multi_margin_loss(const float* __restrict__ x, const long long* __restrict__ target,
                                             float* loss, float margin, int N, int C)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= N)
        return;
    const float* xi = x + (size_t)i * C;
    const long long y = target[i];
    const float xy = xi[y];
    float s = 0.0f;
    for (int j = 0; j < C; j++) {
        if (j == y) continue;
        float h = margin - xy + xi[j];
        if (h > 0.0f)
            s += h;
    }
    atomicAdd(loss, s / C / N);
}
