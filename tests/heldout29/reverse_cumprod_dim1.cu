// y[b][t][d] = prod_{s >= t} x[b][s][d]: the reverse cumulative product along the middle axis, `x.flip(1).cumprod(1).flip(1)` (KernelBench level 1's cumprod run backwards, as a survival probability from each step to the end of a sequence) on [16, 1024, 256] fp32, x uniform(0.9, 1.1); one thread per (b, d) column, a `template <typename scalar_t>` kernel instantiated for float, the flat column index split by / and %, early return, a `long` offset stepped down by D from the last step to the first.

/* @optiml
   sizes:   B=16 T=1024 D=256   # x 16 MiB in, y 16 MiB out; 4.2 MFLOP (one product per element)
   check:   B=1 T=1 D=1; B=2 T=7 D=3; B=1 T=300 D=5; B=3 T=2 D=129; B=1 T=33 D=257; B=4 T=17 D=1
   template: scalar_t=float
   x:       in  float[B*T*D] uniform(0.9,1.1)
   y:       out float[B*T*D]
   launch:  grid=cdiv(B*D,128) block=128
   flops:   B*T*D
   tol:     1e-4
*/
template <typename scalar_t>
__global__ void reverse_cumprod_dim1(const scalar_t* x, scalar_t* y, int B, int T, int D)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= B * D)
        return;
    int b = col / D;
    int d = col % D;

    long offset = ((long)b * T + (T - 1)) * D + d;
    scalar_t running = scalar_t(1);
    for (int t = T - 1; t >= 0; --t) {
        running *= x[offset];
        y[offset] = running;
        offset -= D;
    }
}

template __global__ void reverse_cumprod_dim1<float>(const float*, float*, int, int, int);
