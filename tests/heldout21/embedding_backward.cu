// grad_weight[ids[t]][d] += grad_output[t][d] for every token t whose id is not padding_idx: the weight gradient of nn.Embedding(num_embeddings, embedding_dim, padding_idx=0) (embedding_dense_backward), scattered into a [V, D] table by int64 token ids; grad_weight must start at 0; one thread per (token, column), the flat index split with / and %, one float atomicAdd each.
#include <cstdint>

/* @optiml
   sizes:       T=32768 D=1024 V=32000   # grad_output 128 MiB in, grad_weight 125 MiB (read and written), ids 256 KiB
   check:       T=1 D=1 V=32000; T=7 D=3 V=32000; T=1000 D=17 V=32001; T=33 D=257 V=32000; T=70001 D=1 V=32000; T=4099 D=2 V=32768
   grad_output: in    float[T*D]
   ids:         in    int64_t[T] range(0,32000)
   grad_weight: inout float[V*D] const(0)   # accumulator: zeroed before each run
   padding_idx: 0
   launch:      grid=cdiv(T*D,256) block=256
   flops:       T*D
   tol:         1e-4
*/
__global__ void embedding_dense_backward(const float* __restrict__ grad_output, const int64_t* __restrict__ ids,
                                         float* grad_weight, int padding_idx, int T, int D)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (long)T * D) return;

    long t = i / D;
    long d = i % D;
    int64_t id = ids[t];
    if (id == padding_idx) return;   // the padding row gets no gradient
    atomicAdd(&grad_weight[id * D + d], grad_output[i]);
}
