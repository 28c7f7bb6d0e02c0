// idx[b][p] = the first k with d[b][k][p] = min_k' d[b][k'][p]: `torch.argmin(d, dim=1)` (KernelBench level 1's argmin over a dimension, the middle one of three), as a vector quantizer picks the nearest of K = 512 codebook entries for each of P = 1024 positions from distances laid out [B, K, P], B = 64, fp32 in, int64 out; one thread per (b, p) on a 1-D launch, `unsigned int` sizes and flat index split by / and %, early return, a pointer stepped one K-row (P floats) at a time, strict `<` so the first minimum wins, `__restrict__` on both pointers.
#include <cstdint>

/* @optiml
   sizes:   B=64 K=512 P=1024   # d 128 MiB in, idx 512 KiB out; 34 MFLOP (compares)
   check:   B=1 K=1 P=1; B=2 K=7 P=3; B=1 K=300 P=5; B=3 K=2 P=129; B=1 K=33 P=257; B=4 K=5 P=1; B=2 K=64 P=100
   d:       in  float[B*K*P]
   idx:     out int64_t[B*P]
   launch:  grid=cdiv(B*P,256) block=256
   flops:   B*K*P
*/
__global__ void argmin_dim1_codes(const float* __restrict__ d, int64_t* __restrict__ idx,
                                  unsigned int B, unsigned int K, unsigned int P)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= B * P)
        return;
    unsigned int b = i / P;
    unsigned int p = i % P;

    const float* col = d + (size_t)b * K * P + p;
    float best = *col;
    unsigned int arg = 0;
    for (unsigned int k = 1; k < K; ++k) {
        col += P;
        if (*col < best) {
            best = *col;
            arg = k;
        }
    }
    idx[i] = (int64_t)arg;
}
