// y[b][c][l] = x[b][c][l] / max(sqrt(sum_c' x[b][c'][l]^2), 1e-12): `F.normalize(x, p=2, dim=1)` over the middle dimension of a [B, C, L] tensor (KernelBench level 1's L2 normalization, here across the channels of each position, as dense contrastive heads normalize per-pixel embeddings) on [16, 256, 4096] fp32; one thread per (b, l) on a 1-D launch, the `size_t` flat index split by / and %, a braced bounds if, #define EPS, a pointer to the column stepped one L-row at a time, two passes (sum of squares, divide).

#define EPS 1e-12f

/* @optiml
   sizes:   B=16 C=256 L=4096   # x 64 MiB in, y 64 MiB out; 0.05 GFLOP
   check:   B=1 C=1 L=1; B=2 C=3 L=7; B=1 C=64 L=257; B=3 C=5 L=2; B=1 C=300 L=1; B=2 C=17 L=129
   x:       in  float[B*C*L]
   y:       out float[B*C*L]
   launch:  grid=cdiv(B*L,128) block=128
   flops:   3*B*C*L
   tol:     1e-5
*/
__global__ void l2_normalize_dim1(const float* x, float* y, int B, int C, int L)
{
    size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < (size_t)B * L) {
        size_t b = idx / L;
        size_t l = idx % L;
        const float* col = x + b * C * L + l;

        float ss = 0.0f;
        const float* p = col;
        for (int c = 0; c < C; ++c) {
            ss += *p * *p;
            p += L;
        }
        float denom = fmaxf(sqrtf(ss), EPS);

        float* out = y + b * C * L + l;
        for (int c = 0; c < C; ++c)
            out[(size_t)c * L] = col[(size_t)c * L] / denom;
    }
}
