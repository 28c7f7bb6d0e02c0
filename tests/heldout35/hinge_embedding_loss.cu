// loss = (1 / n) sum_i (t_i == 1 ? x_i : max(0, margin - x_i)), t_i = +1 where label_i is 1 and -1 where it is 0, margin = 1.0: `F.hinge_embedding_loss(x, 2 * labels - 1, margin=1.0)` (nn.HingeEmbeddingLoss, mean, as a similarity-learning objective scores pairwise distances) over 16777216 fp32 distances `normal(0.5,1)` with int32 labels `range(0,2)`; the classic assistant reduction: `#define BLOCK_SIZE 256`, an `int` grid-stride `for` loop capped at 1024 blocks (64 elements a thread at the benchmark size) accumulating `float sum = 0.0f`, the partial sums in a `__shared__ float cache[BLOCK_SIZE]`, a tree reduction halving `s` with `__syncthreads()`, and one `atomicAdd(loss, cache[0] / n)` per block into a zero-initialised scalar; margin a float argument with its own contract line.

#define BLOCK_SIZE 256

/* @optiml
   sizes:   n=16777216   # x 64 MiB in, labels 64 MiB in, loss 4 B; 50 MFLOP
   check:   n=1; n=7; n=257; n=1000; n=4099; n=300001
   x:       in    float[n] normal(0.5,1)
   labels:  in    int[n] range(0,2)
   loss:    inout float[1] const(0)
   margin:  1.0
   launch:  grid=min(cdiv(n,256),1024) block=256
   flops:   3*n
   tol:     1e-5
*/
__global__ void hinge_embedding_loss(const float* x, const int* labels, float* loss, float margin, int n)
{
    __shared__ float cache[BLOCK_SIZE];

    int tid = threadIdx.x;
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;

    float sum = 0.0f;
    for (int i = idx; i < n; i += stride) {
        if (labels[i] == 1)
            sum += x[i];
        else
            sum += fmaxf(0.0f, margin - x[i]);
    }
    cache[tid] = sum;
    __syncthreads();

    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            cache[tid] += cache[tid + s];
        __syncthreads();
    }

    if (tid == 0)
        atomicAdd(loss, cache[0] / n);
}
