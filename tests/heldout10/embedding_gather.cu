// out[t][d] = table[ids[t]][d]: an embedding lookup, gathering one row of a vocab x dim table per token id.
/* @optiml
   sizes:  vocab=32000 dim=512 tokens=262144   # 62.5 MiB table (every row looked up), 512 MiB out, 2 MiB ids
   check:  vocab=32000 dim=1 tokens=1; vocab=32000 dim=3 tokens=5; vocab=40000 dim=65 tokens=37; vocab=32001 dim=300 tokens=2
   ids:    in  int64[tokens] range(0,32000)    # every check size has vocab >= 32000
   table:  in  float[vocab*dim]
   out:    out float[tokens*dim]
   launch: grid=cdiv(tokens*dim,256) block=256
*/
__global__ void embedding_lookup(const long long* __restrict__ ids, const float* __restrict__ table,
                                 float* __restrict__ out, int tokens, int dim)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (long long)tokens * dim) return;
    long long t = i / dim;
    int d = (int)(i - t * dim);
    long long row = ids[t];
    out[i] = table[row * dim + d];
}
