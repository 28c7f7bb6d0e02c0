// q_out[b][s][h][i] = q[i] * cos[s][i] - q[i + D/2] * sin[s][i] and q_out[b][s][h][i + D/2] = q[i + D/2] * cos[s][i] + q[i] * sin[s][i] for i < D/2 (q = q[b][s][h]): rotary position embedding in the rotate_half (GPT-NeoX / HF Llama) layout on a B x S x H x D tensor of halves, fp32 math, one thread per rotated pair.
#include <cuda_fp16.h>

/* @optiml
   sizes:      B=4 S=2048 H=32 D=128    # 2^25 halves: 64 MiB in, 64 MiB out, 2 x 512 KiB of float cos/sin tables
   check:      B=1 S=1 H=1 D=2; B=2 S=3 H=5 D=8; B=1 S=17 H=3 D=64; B=3 S=7 H=2 D=130
   q:          in  half[B*S*H*D]
   cos_cached: in  float[S*(D/2)]
   sin_cached: in  float[S*(D/2)]
   q_out:      out half[B*S*H*D]
   launch:     grid=cdiv(B*S*H*(D/2),256) block=256
   flops:      3*B*S*H*D
   tol:        1e-2                     # fp16 output
*/
__global__ void rope_rotate_half(const __half* __restrict__ q, const float* __restrict__ cos_cached,
                                 const float* __restrict__ sin_cached, __half* __restrict__ q_out,
                                 int B, int S, int H, int D)
{
    const int half_d = D / 2;
    long idx = blockIdx.x * (long)blockDim.x + threadIdx.x;
    long total = (long)B * S * H * half_d;
    if (idx >= total) return;

    int i = idx % half_d;          // position inside the first half of the head
    long tok_head = idx / half_d;  // (b, s, h) flattened
    int s = (tok_head / H) % S;    // sequence position

    long base = tok_head * D;
    float x1 = __half2float(q[base + i]);
    float x2 = __half2float(q[base + i + half_d]);
    float c = cos_cached[s * half_d + i];
    float sn = sin_cached[s * half_d + i];

    q_out[base + i] = __float2half(x1 * c - x2 * sn);
    q_out[base + i + half_d] = __float2half(x2 * c + x1 * sn);
}
