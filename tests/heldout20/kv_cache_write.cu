// k_cache[b][h][start_pos + s][d] = k_new[b][s][h][d] and the same for v: writing the new keys and values of a prefill chunk into a static KV cache (Hugging Face StaticCache.update's index_copy_ along the sequence dim, cache laid out [B, H, max_len, D], the new states still [B, S, H, D] from the projections); one thread per new element, a 3-D grid (h*D + d, s, b); the rest of the cache is left as it was.
/* @optiml
   sizes:    B=2 S=512 H=32 D=128 max_len=2048 start_pos=1024   # caches 64 MiB each (read and written), k_new / v_new 16 MiB each
   check:    B=1 S=1 H=1 D=1 max_len=2 start_pos=1; B=2 S=3 H=5 D=7 max_len=11 start_pos=8; B=1 S=17 H=4 D=64 max_len=40 start_pos=9; B=3 S=2 H=3 D=33 max_len=5 start_pos=1; B=2 S=100 H=2 D=2 max_len=300 start_pos=200
   k_new:    in    float[B*S*H*D]
   v_new:    in    float[B*S*H*D]
   k_cache:  inout float[B*H*max_len*D]
   v_cache:  inout float[B*H*max_len*D]
   launch:   grid=(cdiv(H*D,256),S,B) block=256
*/
__global__ void write_kv_cache(const float* k_new, const float* v_new, float* k_cache, float* v_cache,
                               int B, int S, int H, int D, int max_len, int start_pos)
{
    int hd = blockIdx.x * blockDim.x + threadIdx.x;
    int s = blockIdx.y;
    int b = blockIdx.z;
    if (hd < H * D && s < S && b < B) {
        int h = hd / D;
        int d = hd % D;
        long src = ((long)b * S + s) * H * D + hd;
        long dst = (((long)b * H + h) * max_len + start_pos + s) * D + d;
        k_cache[dst] = k_new[src];
        v_cache[dst] = v_new[src];
    }
}
