// loss[r] = log(sum_j exp(logits[r][j])) - logits[r][target[r]], computed as max + log(sum exp(x - max)) - x[target]: F.cross_entropy(logits, targets, reduction="none"), the per-token loss of a language-model head over Llama's 32000-token vocabulary (1024 tokens); one block of 512 threads per row, the max and then the sum of exponentials each reduced with a shared-memory tree (`stride` halving from blockDim.x / 2), thread 0 writing the loss.
#include <cstdint>
#include <cmath>

/* @optiml
   sizes:   rows=1024 V=32000           # logits 125 MiB in, targets 8 KiB, loss 4 KiB
   check:   rows=1 V=1000; rows=2 V=1001; rows=3 V=1537; rows=5 V=4099; rows=1 V=32000; rows=7 V=2048
   logits:  in  float[rows*V] normal(0,3)
   targets: in  int64_t[rows] range(0,1000)
   loss:    out float[rows]
   launch:  grid=rows block=512
   flops:   4*rows*V
   tol:     1e-4
*/
__global__ void cross_entropy_rows(const float* logits, const int64_t* targets, float* loss, long rows, long V)
{
    __shared__ float buf[512];
    long r = blockIdx.x;
    int tid = threadIdx.x;
    const float* row = logits + r * V;

    float m = -INFINITY;
    for (long j = tid; j < V; j += blockDim.x)
        m = fmaxf(m, row[j]);
    buf[tid] = m;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            buf[tid] = fmaxf(buf[tid], buf[tid + stride]);
        __syncthreads();
    }
    float row_max = buf[0];
    __syncthreads();

    float s = 0.0f;
    for (long j = tid; j < V; j += blockDim.x)
        s += expf(row[j] - row_max);
    buf[tid] = s;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            buf[tid] += buf[tid + stride];
        __syncthreads();
    }

    if (tid == 0) {
        long t = targets[r];
        loss[r] = logf(buf[0]) + row_max - row[t];
    }
}
