// out[b][d] = sum_l psw[b][l] * table[ids[b][l]][d]: `F.embedding_bag(ids, table, mode="sum", per_sample_weights=psw)` with fixed-length bags ([B, L] ids, as `nn.EmbeddingBag(..., mode="sum")` takes them without offsets), a DLRM / TorchRec weighted sparse feature: 100000 x 128 table, 4096 bags of 32 lookups, fp32 with int64 ids; one thread per output element on a 2-D grid of 128 threads (d on x, blockIdx.y = b), early return, `const int64_t*` ids read once per lookup and skipped when outside [0, V), a row pointer into the table per lookup.
#include <cstdint>

/* @optiml
   sizes:   B=4096 L=32 V=100000 D=128   # table 48.8 MiB (64 MiB gathered), ids 1 MiB, psw 512 KiB in, out 2 MiB out; 34 MFLOP
   check:   B=1 L=1 V=100000 D=1; B=2 L=3 V=100000 D=5; B=3 L=7 V=100000 D=129; B=1 L=40 V=100000 D=2; B=5 L=1 V=100000 D=33; B=2 L=17 V=100000 D=3
   ids:     in  int64_t[B*L] range(0,100000)
   psw:     in  float[B*L]
   table:   in  float[V*D]
   out:     out float[B*D]
   launch:  grid=(cdiv(D,128),B) block=128
   flops:   2*B*L*D
   tol:     1e-5
*/
__global__ void embedding_bag_weighted(const int64_t* ids, const float* psw, const float* table, float* out,
                                       int B, int L, int V, int D)
{
    int d = blockIdx.x * blockDim.x + threadIdx.x;
    int b = blockIdx.y;
    if (d >= D || b >= B) return;

    const int64_t* bag = ids + (int64_t)b * L;
    const float* wb = psw + (int64_t)b * L;
    float acc = 0.0f;
    for (int l = 0; l < L; ++l) {
        int64_t id = bag[l];
        if (id < 0 || id >= V) continue;        // PyTorch raises on such an id; skip it rather than read outside
        const float* row = table + id * D;
        acc += wb[l] * row[d];
    }
    out[(int64_t)b * D + d] = acc;
}
