// out[b][t][c] = wte[idx[b][t]][c] + wpe[t][c]: GPT-2's input embedding (nanoGPT's `tok_emb = self.transformer.wte(idx); pos_emb = self.transformer.wpe(pos); x = tok_emb + pos_emb`), 40 sequences of 1024 int32 token ids, 768 channels, a 1000-row token table (kept small so that the traffic is the output's); one thread per output element on a 1-D launch, (b, t, c) from an int index with / and %, the token id read by every thread of its row, __restrict__ on every pointer, the output pointer first.

/* @optiml
   sizes:   B=40 T=1024 C=768 V=1000    # out 120 MiB out, wte 2.9 MiB, wpe 3 MiB, idx 160 KiB in
   check:   B=1 T=1 C=1; B=2 T=3 C=5; B=1 T=17 C=64; B=3 T=7 C=33; B=2 T=100 C=3; B=4 T=9 C=130
   out:     out float[B*T*C]
   idx:     in  int[B*T] range(0,1000)
   wte:     in  float[V*C]
   wpe:     in  float[T*C]
   launch:  grid=cdiv(B*T*C,256) block=256
   flops:   B*T*C
   tol:     1e-5
*/
__global__ void token_position_embedding(float* __restrict__ out, const int* __restrict__ idx,
                                         const float* __restrict__ wte, const float* __restrict__ wpe,
                                         int B, int T, int C)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= B * T * C)
        return;

    int bt = i / C;
    int t = bt % T;
    int c = i % C;
    int token = idx[bt];
    out[i] = wte[token * C + c] + wpe[t * C + c];
}
