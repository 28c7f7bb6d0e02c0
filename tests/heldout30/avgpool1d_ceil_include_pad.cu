// y[r][t] = (1 / (min(2 t - 1 + 3, L + 1) - (2 t - 1))) * sum of x[r][l] over l in [max(2 t - 1, 0), min(2 t + 2, L)): `nn.AvgPool1d(kernel_size=3, stride=2, padding=1, ceil_mode=True, count_include_pad=True)` (KernelBench level 1's 1-D average pooling, here in ceil mode: the last window may run past the padded end, and its divisor counts the padding but not what lies past it) on audio features [16, 512, 4096] (R = N * C = 8192 rows) -> [16, 512, 2049] fp32; one thread per output on a 1-D launch, the int flat index split into (row, t) by / and %, early return, the kernel, stride and padding as an anonymous `enum`, L_out computed in the kernel with PyTorch's ceil-mode rule (drop a last window that starts past the padded end), the divisor from the window clipped at L + PAD before the sum's bounds are clamped to [0, L) with max / min, a row pointer.

enum { KSIZE = 3, STRIDE = 2, PAD = 1 };

/* @optiml
   sizes:   R=8192 L=4096   # x 128 MiB in, y 64 MiB out; 50 MFLOP
   check:   R=1 L=1; R=2 L=2; R=3 L=7; R=1 L=300; R=5 L=64; R=2 L=257; R=1 L=4; R=7 L=3
   x:       in  float[R*L]
   y:       out float[R*(L//2+1)]
   launch:  grid=cdiv(R*(L//2+1),256) block=256
   flops:   3*R*(L//2+1)
   tol:     1e-5
*/
__global__ void avgpool1d_ceil_include_pad(const float* x, float* y, int R, int L)
{
    int Lout = (L + 2 * PAD - KSIZE + STRIDE - 1) / STRIDE + 1;   // ceil division
    if ((Lout - 1) * STRIDE >= L + PAD)
        Lout--;
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= R * Lout)
        return;
    int r = idx / Lout;
    int t = idx % Lout;

    int start = t * STRIDE - PAD;
    int end = min(start + KSIZE, L + PAD);
    int count = end - start;                     // padding counted, the overhang past L + PAD not
    int lo = max(start, 0);
    int hi = min(end, L);

    const float* row = x + (long)r * L;
    float s = 0.f;
    for (int l = lo; l < hi; ++l)
        s += row[l];
    y[idx] = s / count;
}
