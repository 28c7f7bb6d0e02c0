// out[b][h][s][d] = x[b][s][h][d]: the head split of attention, q.view(B, S, H, D).transpose(1, 2).contiguous() (Hugging Face LlamaAttention) on bfloat16, [B,S,H,D] -> [B,H,S,D]; one thread per output element, the flat output index decoded with / and %.
#include <cuda_bf16.h>
#include <cstdint>

/* @optiml
   sizes:  B=8 S=2048 H=32 D=128        # 2^26 bf16: 128 MiB in, 128 MiB out
   check:  B=1 S=1 H=1 D=1; B=2 S=3 H=5 D=7; B=1 S=17 H=4 D=64; B=3 S=2 H=12 D=33; B=2 S=100 H=1 D=2; B=1 S=9 H=40 D=1
   x:      in  __nv_bfloat16[B*S*H*D]
   out:    out __nv_bfloat16[B*H*S*D]
   launch: grid=cdiv(B*S*H*D,256) block=256
*/
__global__ void permute_bshd_to_bhsd(const __nv_bfloat16* x, __nv_bfloat16* out, int B, int S, int H, int D)
{
    int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    int64_t total = (int64_t)B * S * H * D;
    if (idx >= total) return;

    // idx walks the output: d fastest, then s, then h, then b
    int d = idx % D;
    int s = (idx / D) % S;
    int h = (idx / ((int64_t)D * S)) % H;
    int b = idx / ((int64_t)D * S * H);

    int64_t src = (((int64_t)b * S + s) * H + h) * D + d;
    out[idx] = x[src];
}
