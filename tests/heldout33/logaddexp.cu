// y = log(exp(a) + exp(b)) = max(a, b) + log1p(exp(-|a - b|)): `torch.logaddexp(a, b)` (adding probabilities held as logs, as CTC's forward-backward and beam searches merge paths) on two [8192, 4096] fp32 tensors of log-probabilities, a and b `uniform(-20,5)`; one thread per element on a 1-D launch with the index spelled `threadIdx.x + blockDim.x * blockIdx.x`, early return, a ternary-heavy `static __device__ inline` helper with two returns (equal infinities returned as they are, as PyTorch does, then the larger plus `log1pf` of the exponential of the negative gap, taken to nothing below -88 by a last ternary), `isinf`.

static __device__ inline float logaddexp_(float a, float b)
{
    if (isinf(a) && a == b)
        return a;
    const float m = a > b ? a : b;
    const float d = a > b ? b - a : a - b;   // -|a - b|
    return d < -88.0f ? m : m + log1pf(expf(d));
}

/* @optiml
   sizes:   n=33554432   # a, b 128 MiB in each, y 128 MiB out; 0.17 GFLOP
   check:   n=1; n=7; n=255; n=257; n=1000; n=4099
   a:       in  float[n] uniform(-20,5)
   b:       in  float[n] uniform(-20,5)
   y:       out float[n]
   launch:  grid=cdiv(n,256) block=256
   flops:   5*n
*/
__global__ void logaddexp(const float* a, const float* b, float* y, int n)
{
    int i = threadIdx.x + blockDim.x * blockIdx.x;
    if (i >= n) return;
    y[i] = logaddexp_(a[i], b[i]);
}
