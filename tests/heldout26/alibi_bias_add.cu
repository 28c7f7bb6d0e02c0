// scores[b][h][i][j] += -|j - i| * slope[h], slope[h] = 2^(-8 (m + 1) / H2) with H2 the power of two at or above H and m = h for a power-of-two H, else the interleaved order [1, 3, 5, ..., 0, 2, 4, ...][h]: MosaicML MPT's symmetric ALiBi attention bias (`gen_slopes` and `build_alibi_bias(full=True)`, alibi_bias_max 8) added in place to the attention scores (`attn_weight = attn_weight + attn_bias`), 16 heads over 1024 positions, [1, 16, 1024, 1024] fp32; one thread per score on a 3-D grid of 32 x 8 blocks (blockIdx.z = b * H + h), the head's slope from a small __device__ helper with exp2f.

__device__ float alibi_slope(int h, int H)
{
    int H2 = 1;
    while (H2 < H)
        H2 *= 2;
    int m = h;
    if (H2 != H)
        m = (h < H2 / 2) ? 2 * h + 1 : 2 * (h - H2 / 2);
    return exp2f(-8.0f * (float)(m + 1) / (float)H2);
}

/* @optiml
   sizes:   B=1 H=16 S=1024             # scores 64 MiB read and written
   check:   B=1 H=1 S=1; B=2 H=3 S=7; B=1 H=5 S=33; B=3 H=8 S=9; B=1 H=12 S=40; B=2 H=6 S=257; B=1 H=2 S=100
   scores:  inout float[B*H*S*S]
   launch:  grid=(cdiv(S,32),cdiv(S,8),B*H) block=(32,8)
   flops:   3*B*H*S*S
   tol:     1e-5
*/
__global__ void alibi_bias_add(float* scores, int B, int H, int S)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;   // key position
    int i = blockIdx.y * blockDim.y + threadIdx.y;   // query position
    int bh = blockIdx.z;
    int h = bh % H;
    if (i >= S || j >= S)
        return;

    float slope = alibi_slope(h, H);
    int dist = j > i ? j - i : i - j;
    scores[((size_t)bh * S + i) * S + j] += -(float)dist * slope;
}
