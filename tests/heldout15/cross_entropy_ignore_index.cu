// loss_sum[0] += sum over rows i with target[i] != ignore_index of (logsumexp(logits[i]) - logits[i][target[i]]), n_valid[0] += the number of such rows: token-level cross entropy with an ignored (padding) label, summed with atomics for a later division (F.cross_entropy(..., ignore_index, reduction="sum") and the non-ignored count); both must start at 0.
#include <math.h>

/* @optiml
   sizes:        N=65536 V=1024         # 2^26 floats: 256 MiB of logits in, 512 KiB of int64 targets
   check:        N=1 V=32; N=5 V=33; N=37 V=1000; N=300 V=64; N=2 V=3001
   logits:       in    float[N*V] normal(0,2)
   target:       in    long long[N] range(0,32)   # label 0 (the pad id) is ignored: 1 row in 32; every size has V >= 32
   loss_sum:     inout float[1] const(0)          # accumulators: zeroed before each run
   n_valid:      inout int[1] const(0)
   ignore_index: 0
   launch:       grid=cdiv(N,128) block=128
   flops:        4*N*V
   tol:          1e-3                   # up to 65536 fp32 atomics in arbitrary order
*/
extern "C" __global__ void cross_entropy_ignore_index(const float* logits, const long long* target, float* loss_sum,
                                                      int* n_valid, int ignore_index, int N, int V)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= N) return;
    long long y = target[i];
    if (y == ignore_index) return;   // padding token: contributes nothing

    const float* row = logits + (size_t)i * V;
    float mx = row[0];
    for (int v = 1; v < V; ++v)
        mx = fmaxf(mx, row[v]);
    float se = 0.f;
    for (int v = 0; v < V; ++v)
        se += expf(row[v] - mx);
    float nll = logf(se) + mx - row[y];

    atomicAdd(loss_sum, nll);
    atomicAdd(n_valid, 1);
}
