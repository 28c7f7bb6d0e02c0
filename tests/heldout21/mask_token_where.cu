// out[b][l][d] = bool_masked_pos[b][l] ? mask_token[d] : x[b][l][d]: replacing the masked patch embeddings of a [B, L, D] sequence by the learned mask token, torch.where(bool_masked_pos.unsqueeze(-1), mask_token, x) with the token broadcast over batch and positions (SimMIM / BEiT / Hugging Face ViTEmbeddings' bool_masked_pos), uint8 mask; one thread per element, a 2-D grid with the patch (b, l) on y.
/* @optiml
   sizes:      B=256 L=196 D=768        # ViT-B/16 at 224: x 147 MiB in, out 147 MiB, mask 49 KiB, token 3 KiB
   check:      B=1 L=1 D=1; B=2 L=7 D=3; B=1 L=49 D=128; B=3 L=5 D=257; B=4 L=196 D=2; B=1 L=2 D=768
   x:          in  float[B*L*D]
   bool_masked_pos: in unsigned char[B*L] range(0,2)
   mask_token: in  float[D]
   out:        out float[B*L*D]
   launch:     grid=(cdiv(D,128),B*L) block=128
*/
__global__ void mask_token_where(const float* __restrict__ x, const unsigned char* __restrict__ bool_masked_pos,
                                 const float* __restrict__ mask_token, float* __restrict__ out, int B, int L, int D)
{
    int d = blockIdx.x * blockDim.x + threadIdx.x;
    int patch = blockIdx.y;                 // b * L + l
    if (d >= D || patch >= B * L) return;

    long i = (long)patch * D + d;
    out[i] = bool_masked_pos[patch] ? mask_token[d] : x[i];
}
