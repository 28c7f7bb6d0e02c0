// out[b][d] = (1/L) * sum over l of weight[input[b][l]][d]: nn.EmbeddingBag(mode="mean") over fixed-length bags (a B x L int64 index tensor), a gather followed by a mean, one thread per output element.
#include <cstdint>

/* @optiml
   sizes:  V=4096 D=1024 B=16384 L=16   # 16 MiB table (each row gathered 64 times on average), 64 MiB out, 2 MiB of ids
   check:  V=4096 D=1 B=1 L=1; V=4096 D=3 B=5 L=2; V=4100 D=129 B=7 L=33; V=4096 D=300 B=2 L=5; V=4096 D=8 B=100 L=1
   input:  in  int64_t[B*L] range(0,4096)   # every size has V >= 4096
   weight: in  float[V*D]
   out:    out float[B*D]
   launch: grid=(cdiv(D,128),B) block=128
   flops:  B*L*D + B*D
*/
__global__ void embedding_bag_mean(const int64_t* input, const float* weight, float* out, int V, int D, int B, int L)
{
    int d = blockIdx.x * blockDim.x + threadIdx.x;
    int b = blockIdx.y;
    if (d >= D) return;

    const int64_t* bag = input + (int64_t)b * L;
    float acc = 0.f;
    for (int l = 0; l < L; l++) {
        int64_t id = bag[l];
        acc += weight[id * D + d];
    }
    out[(int64_t)b * D + d] = acc / (float)L;
}
