// y[r] = (x[r] - mean(x[r])) / sqrt(var(x[r]) + eps) * weight + bias, mean and biased variance over the last dimension: nn.LayerNorm(4096) with elementwise affine on the hidden states of a transformer (4 sequences of 1024 tokens, hidden size 4096); one block of 1024 threads per token row, a shared-memory tree reduction of the sum after which thread 0 stores the mean in a __shared__ float, a second tree for the squared deviations after which thread 0 stores 1 / sqrt(var + eps), then a write pass.
#define BLOCK_SIZE 1024

/* @optiml
   sizes:   rows=4096 D=4096            # x 64 MiB in, y 64 MiB out, weight / bias 16 KiB each
   check:   rows=1 D=1; rows=2 D=3; rows=3 D=1000; rows=2 D=1025; rows=1 D=4096; rows=2 D=3001
   x:       in  float[rows*D]
   weight:  in  float[D] uniform(0.5,1.5)
   bias:    in  float[D]
   y:       out float[rows*D]
   eps:     1e-5
   launch:  grid=rows block=1024
   flops:   8*rows*D
   tol:     1e-4
*/
__global__ void layer_norm_rows(const float* __restrict__ x, const float* __restrict__ weight,
                                const float* __restrict__ bias, float* __restrict__ y, float eps, long rows, long D)
{
    __shared__ float sdata[BLOCK_SIZE];
    __shared__ float s_mean;
    __shared__ float s_rstd;

    int tid = threadIdx.x;
    long row = blockIdx.x;
    const float* in = x + row * D;
    float* out = y + row * D;

    float sum = 0.0f;
    for (long i = tid; i < D; i += BLOCK_SIZE)
        sum += in[i];
    sdata[tid] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        s_mean = sdata[0] / D;
    __syncthreads();
    float mean = s_mean;

    float sq = 0.0f;
    for (long i = tid; i < D; i += BLOCK_SIZE) {
        float d = in[i] - mean;
        sq += d * d;
    }
    sdata[tid] = sq;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        s_rstd = 1.0f / sqrtf(sdata[0] / D + eps);
    __syncthreads();
    float rstd = s_rstd;

    for (long i = tid; i < D; i += BLOCK_SIZE)
        out[i] = (in[i] - mean) * rstd * weight[i] + bias[i];
}
