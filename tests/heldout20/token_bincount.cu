// counts[b][tokens[b][j]] += 1 for every j < L: the per-sequence counts of generated token ids over the vocabulary that frequency and presence penalties read (vLLM's get_token_bin_counts_and_mask: a scatter_add_ of ones into a [batch, vocab] int table); counts must start at 0; one thread per token, a 2-D grid with the sequence on y, one int atomicAdd each.
#include <cstdint>

/* @optiml
   sizes:  batch=128 L=65536 vocab=32000   # tokens 64 MiB in, counts 15.6 MiB (read and written)
   check:  batch=1 L=1 vocab=32000; batch=2 L=7 vocab=32000; batch=3 L=1000 vocab=32001; batch=1 L=4099 vocab=32003; batch=5 L=300 vocab=32000; batch=2 L=70000 vocab=32768
   tokens: in    int64_t[batch*L] range(0,32000)
   counts: inout int[batch*vocab] const(0)   # accumulator: zeroed before each run
   launch: grid=(cdiv(L,256),batch) block=256
*/
__global__ void count_output_tokens(const int64_t* tokens, int* counts, int batch, int L, int vocab)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int b = blockIdx.y;
    if (j < L && b < batch) {
        int64_t tok = tokens[(int64_t)b * L + j];
        atomicAdd(&counts[(int64_t)b * vocab + tok], 1);
    }
}
