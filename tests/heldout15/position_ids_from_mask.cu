// position_ids[b][t] = (sum over t' <= t of attention_mask[b][t']) - 1 where attention_mask[b][t] != 0, else 1: position ids from a padding mask as HF generate() builds them (mask.cumsum(-1) - 1, then masked_fill_(mask == 0, 1)), int64 in and out, an inclusive scan along each row, one thread per sequence.
#include <cstdint>

/* @optiml
   sizes:          batch=16384 seq_len=1024   # 2^24 int64: 128 MiB in, 128 MiB out
   check:          batch=1 seq_len=1; batch=3 seq_len=7; batch=2 seq_len=1000; batch=129 seq_len=2; batch=37 seq_len=300
   attention_mask: in  int64_t[batch*seq_len] range(0,2)
   position_ids:   out int64_t[batch*seq_len]
   launch:         grid=cdiv(batch,256) block=256
*/
__global__ void position_ids_from_mask(const int64_t* __restrict__ attention_mask, int64_t* __restrict__ position_ids,
                                       int batch, int seq_len)
{
    int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= batch)
        return;
    const int64_t* m = attention_mask + (int64_t)b * seq_len;
    int64_t* pos = position_ids + (int64_t)b * seq_len;
    int64_t running = 0;
    for (int t = 0; t < seq_len; ++t) {
        running += m[t];
        pos[t] = (m[t] == 0) ? 1 : running - 1;
    }
}
