// out[r][j] = sum over k <= j of (mask[r][k] ? x[r][k] : 0): cumulative sum of the masked entries along each row (torch.cumsum(x * mask, dim=1)), a B x L float tensor with a bool mask; one thread per row.
/* @optiml
   sizes:  B=4096 L=4096                # 2^24: 64 MiB of x, 16 MiB of bool mask in, 64 MiB out
   check:  B=1 L=1; B=3 L=5; B=37 L=1000; B=2 L=3001; B=300 L=2
   x:      in  float[B*L]
   mask:   in  bool[B*L]
   out:    out float[B*L]
   launch: grid=cdiv(B,128) block=128
   flops:  B*L
   tol:    1e-4
*/
__global__ void masked_cumsum(const float* __restrict__ x, const bool* __restrict__ mask, float* __restrict__ out,
                              int B, int L)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < B) {
        size_t base = (size_t)r * L;
        float running = 0.0f;
        for (int j = 0; j < L; j++) {
            if (mask[base + j])
                running += x[base + j];
            out[base + j] = running;
        }
    }
}
