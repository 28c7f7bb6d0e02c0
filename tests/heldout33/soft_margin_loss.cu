// loss = (1 / n) sum_i log(1 + exp(-t_i x_i)), t_i = +1 where label_i is 1 and -1 where it is 0, n = B * C: `F.soft_margin_loss(x, 2 * labels - 1)` (nn.SoftMarginLoss, the mean two-class logistic loss, here over the 4096 x 4096 per-class scores of a multi-label tagger with 0/1 labels) fp32 scores `normal(0,8)` and uint8 labels; an early return, then a `size_t` grid-stride `do { } while` loop capped at 512 blocks of 256 (128 elements a thread at the benchmark size) with the stride taken from `gridDim`, a `static __device__ inline` softplus with three returns (the linear and exponential tails and `log1pf(expf(z))`), a ternary on the label, a `double` partial per thread, one atomicAdd of partial / n per thread into a zero-initialised scalar.

static __device__ inline float softplus_(float z)
{
    if (z > 20.0f)
        return z;
    if (z < -20.0f)
        return expf(z);
    return log1pf(expf(z));
}

/* @optiml
   sizes:   B=4096 C=4096   # x 64 MiB in, labels 16 MiB in, loss 4 B; 84 MFLOP
   check:   B=1 C=1; B=2 C=7; B=3 C=1000; B=1 C=257; B=17 C=33; B=3 C=100000
   x:       in  float[B*C] normal(0,8)
   labels:  in  unsigned char[B*C] range(0,2)
   loss:    inout float[1] const(0)
   launch:  grid=min(cdiv(B*C,256),512) block=256
   flops:   5*B*C
   tol:     1e-3
*/
__global__ void soft_margin_loss(const float* x, const unsigned char* labels, float* loss, int B, int C)
{
    const size_t n = (size_t)B * C;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const size_t stride = (size_t)gridDim.x * blockDim.x;

    double partial = 0.0;
    do {
        const float z = labels[i] ? -x[i] : x[i];
        partial += softplus_(z);
        i += stride;
    } while (i < n);
    atomicAdd(loss, (float)(partial / (double)n));
}
