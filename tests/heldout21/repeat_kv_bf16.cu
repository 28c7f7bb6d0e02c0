// out[b][h][s][d] = kv[b][h / (H / KVH)][s][d]: grouped-query attention's repeat_kv, expanding [B, KVH, S, D] key or value states to [B, H, S, D] so that each of the H / KVH query heads of a group gets its KV head (Hugging Face's repeat_kv: expand then reshape), bfloat16; one thread per output element, a 3-D grid (s*D + d, h, b).
#include <cuda_bf16.h>

/* @optiml
   sizes:  B=4 KVH=8 H=32 S=4096 D=128  # kv 32 MiB in, out 128 MiB
   check:  B=1 KVH=1 H=1 S=1 D=1; B=2 KVH=1 H=3 S=5 D=7; B=1 KVH=2 H=8 S=17 D=64; B=3 KVH=3 H=6 S=2 D=33; B=1 KVH=4 H=4 S=100 D=2; B=2 KVH=2 H=10 S=9 D=128
   kv:     in  __nv_bfloat16[B*KVH*S*D]
   out:    out __nv_bfloat16[B*H*S*D]
   launch: grid=(cdiv(S*D,256),H,B) block=256
*/
__global__ void repeat_kv(const __nv_bfloat16* kv, __nv_bfloat16* out, int B, int KVH, int H, int S, int D)
{
    int sd = blockIdx.x * blockDim.x + threadIdx.x;
    int h = blockIdx.y;
    int b = blockIdx.z;
    if (sd < S * D) {
        int n_rep = H / KVH;
        int kvh = h / n_rep;
        size_t src = ((size_t)b * KVH + kvh) * S * D + sd;
        size_t dst = ((size_t)b * H + h) * S * D + sd;
        out[dst] = kv[src];
    }
}
