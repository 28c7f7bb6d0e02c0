// loss += mean(exp(x) - t * x): `F.poisson_nll_loss(log_rate, target)` (log_input=True, full=False, reduction="mean"; KernelBench-style scalar loss) over 16000001 elements; a grid-stride loop (grid capped at 1024 blocks of 256) of per-thread partial sums, a __shared__ float cache[256] halving tree with __syncthreads, one atomicAdd of the block's sum divided by n per block into a zeroed 1-element loss.
#define BLOCK 256

/* @optiml
   sizes:   n=16000001                  # log_rate 61 MiB in, target 61 MiB in, loss 4 bytes
   check:   n=1; n=2; n=255; n=256; n=257; n=1000; n=70001; n=300001
   log_rate: in    float[n] normal(0,1)
   target:   in    float[n] uniform(0,4)
   loss:     inout float[1] const(0)
   launch:  grid=min(cdiv(n,256),1024) block=256
   flops:   4*n
   tol:     1e-4
*/
__global__ void poisson_nll_loss(const float* log_rate, const float* target, float* loss, int n)
{
    __shared__ float cache[BLOCK];

    int tid = threadIdx.x;
    float part = 0.0f;
    for (int i = blockIdx.x * BLOCK + tid; i < n; i += gridDim.x * BLOCK) {
        float lr = log_rate[i];
        part += expf(lr) - target[i] * lr;
    }
    cache[tid] = part;
    __syncthreads();

    for (int s = BLOCK / 2; s > 0; s /= 2) {
        if (tid < s)
            cache[tid] += cache[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        atomicAdd(loss, cache[0] / n);
}
