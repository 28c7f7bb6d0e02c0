// p[r][j] = keep ? exp(x[r][j] - max) / sum_keep exp(x[r][k] - max) : 0 with keep = softmax(x[r])_j >= min_p * max_k softmax(x[r])_k, min_p = 0.1: min-p sampling's filtered distribution (Hugging Face's MinPLogitsWarper, then the softmax that sampling takes; vLLM's `apply_min_p`), 512 rows over a 32000-word vocabulary; one block of 256 per row, #define BLOCK 256, a __shared__ float red[BLOCK] with two __syncthreads trees (the row max, then the kept sum), the ratio to the top probability as exp(x - max), three strided passes.
#define BLOCK 256

/* @optiml
   sizes:   rows=512 V=32000            # logits 62.5 MiB in, probs 62.5 MiB out
   check:   rows=1 V=1; rows=2 V=7; rows=3 V=255; rows=1 V=256; rows=4 V=257; rows=5 V=1000; rows=2 V=4099; rows=37 V=64
   logits:  in  float[rows*V] normal(0,2)
   probs:   out float[rows*V]
   min_p:   0.1
   launch:  grid=rows block=256
   flops:   6*rows*V
   tol:     1e-5
*/
__global__ void min_p_probs(const float* logits, float* probs, float min_p, int rows, int V)
{
    __shared__ float red[BLOCK];

    int row = blockIdx.x;
    int tid = threadIdx.x;
    const float* x = logits + (size_t)row * V;
    float* p = probs + (size_t)row * V;

    float m = -INFINITY;
    for (int j = tid; j < V; j += BLOCK)
        m = fmaxf(m, x[j]);
    red[tid] = m;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s)
            red[tid] = fmaxf(red[tid], red[tid + s]);
        __syncthreads();
    }
    float row_max = red[0];
    __syncthreads();

    float sum = 0.0f;
    for (int j = tid; j < V; j += BLOCK) {
        float e = expf(x[j] - row_max);
        if (e >= min_p)
            sum += e;
    }
    red[tid] = sum;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s)
            red[tid] += red[tid + s];
        __syncthreads();
    }
    float inv_sum = 1.0f / red[0];

    for (int j = tid; j < V; j += BLOCK) {
        float e = expf(x[j] - row_max);
        p[j] = e >= min_p ? e * inv_sum : 0.0f;
    }
}
