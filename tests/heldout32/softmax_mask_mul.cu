// y[b][h][q][k] = softmax_k(x[b][h][q][:])[k] * mask[b][q][k], the mask shared by the heads: `torch.softmax(x, dim=-1) * mask[:, None]` (a softmax over the last dimension followed by a multiply by a boolean keep mask, no rescale and no renormalisation: KernelBench level 2's Softmax + Multiply chains, as an attention that drops masked probabilities after the softmax writes them) on scores [8, 16, 512, 512] fp32 and a [8, 512, 512] bool mask; one thread per (b, h, q) row on a 3-D grid (queries on x, heads on y, batch on z), early return, `unsigned int` sizes and offsets, row pointers, three passes (max seeded with the row's first score, sum of expf, write with a ternary on the mask).

/* @optiml
   sizes:   B=8 H=16 S=512   # x 128 MiB in, mask 2 MiB in, y 128 MiB out; 0.17 GFLOP
   check:   B=1 H=1 S=1; B=2 H=3 S=7; B=1 H=2 S=129; B=3 H=1 S=40; B=1 H=5 S=300; B=2 H=2 S=2
   x:       in  float[B*H*S*S] uniform(-4,4)
   mask:    in  bool[B*S*S] range(0,2)
   y:       out float[B*H*S*S]
   launch:  grid=(cdiv(S,128),H,B) block=128
   flops:   5*B*H*S*S
   tol:     1e-5
*/
__global__ void softmax_mask_mul(const float* x, const bool* mask, float* y, unsigned int B, unsigned int H,
                                 unsigned int S)
{
    unsigned int q = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int h = blockIdx.y;
    unsigned int b = blockIdx.z;
    if (q >= S) return;

    unsigned int row = (b * H + h) * S + q;
    const float* xr = x + row * S;
    const bool* mr = mask + (b * S + q) * S;
    float* yr = y + row * S;

    float mx = xr[0];
    for (unsigned int k = 1; k < S; ++k)
        mx = fmaxf(mx, xr[k]);
    float sum = 0.0f;
    for (unsigned int k = 0; k < S; ++k)
        sum += expf(xr[k] - mx);
    for (unsigned int k = 0; k < S; ++k)
        yr[k] = mr[k] ? expf(xr[k] - mx) / sum : 0.0f;
}
