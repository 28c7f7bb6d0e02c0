// mask[b][0][i][j] = (j <= i) && attention_mask[b][j] != 0: the boolean mask that F.scaled_dot_product_attention takes (True = attend) for causal self-attention over padded sequences, built from a Hugging Face int64 attention_mask of [8, 4096] (`torch.ones(S, S, dtype=torch.bool).tril() & attention_mask[:, None, None, :].bool()`) into [8, 1, 4096, 4096]; one thread per mask entry on a 3-D grid (blockIdx.z = b) of 32 x 8 blocks, an early return, size_t offsets, a bool store.
#include <cstdint>

/* @optiml
   sizes:   B=8 S=4096                  # mask 128 MiB out (bool), attention_mask 256 KiB in (int64)
   check:   B=1 S=1; B=2 S=7; B=3 S=33; B=1 S=100; B=2 S=257; B=4 S=9
   attention_mask: in  int64_t[B*S] range(0,2)
   mask:           out bool[B*S*S]
   launch:  grid=(cdiv(S,32),cdiv(S,8),B) block=(32,8)
   tol:     1e-5
*/
__global__ void sdpa_bool_mask(const int64_t* attention_mask, bool* mask, int B, int S)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;   // key position
    int i = blockIdx.y * blockDim.y + threadIdx.y;   // query position
    int b = blockIdx.z;
    if (i >= S || j >= S)
        return;

    bool keep = (j <= i) && (attention_mask[(size_t)b * S + j] != 0);
    mask[((size_t)b * S + i) * S + j] = keep;
}
