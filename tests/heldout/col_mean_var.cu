// mean[c] = (1/N) sum_n x[n,c], var[c] = (1/N) sum_n (x[n,c] - mean[c])^2 (biased batch-norm statistics per channel); x is N x C row-major.
/* @optiml
   sizes:  N=65536 C=1024               # 256 MiB in
   check:  N=1000 C=37; N=3 C=1; N=1 C=1000; N=129 C=257
   x:      in  float[N*C]
   mean:   out float[C]
   var:    out float[C]
   launch: grid=cdiv(C,256) block=256
   flops:  4*N*C
   tol:    1e-4
*/
__global__ void bn_stats(const float* x, float* mean, float* var, int N, int C)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c < C) {
        float s = 0.0f;
        for (int n = 0; n < N; ++n)
            s += x[n * C + c];
        const float m = s / N;
        float sq = 0.0f;
        for (int n = 0; n < N; ++n) {
            float d = x[n * C + c] - m;
            sq += d * d;
        }
        mean[c] = m;
        var[c] = sq / N;
    }
}
