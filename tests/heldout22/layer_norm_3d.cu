// y[b] = (x[b] - mean(x[b])) / sqrt(var(x[b]) + eps) * weight + bias, mean and biased variance over all F*D1*D2 elements of sample b: nn.LayerNorm(normalized_shape=(features, dim1, dim2)) with elementwise affine, as in KernelBench level 1's LayerNorm (batch 16, a normalized shape of millions of elements); one block of 256 threads per sample, threads striding over it, a shared-memory tree reduction for the mean, a second for the variance, then a write pass.
#define THREADS 256

/* @optiml
   sizes:   B=16 F=64 D1=128 D2=128     # x 64 MiB in, y 64 MiB out, weight / bias 4 MiB each
   check:   B=1 F=1 D1=1 D2=3; B=2 F=3 D1=5 D2=7; B=4 F=8 D1=16 D2=16; B=3 F=1 D1=1 D2=1000; B=1 F=17 D1=33 D2=9; B=16 F=2 D1=3 D2=50
   x:       in  float[B*F*D1*D2]
   weight:  in  float[F*D1*D2] uniform(0.5,1.5)
   bias:    in  float[F*D1*D2]
   y:       out float[B*F*D1*D2]
   eps:     1e-5
   launch:  grid=B block=256
   flops:   8*B*F*D1*D2
   tol:     1e-4
*/
__global__ void layer_norm_3d(const float* x, const float* weight, const float* bias, float* y, float eps,
                              int B, int F, int D1, int D2)
{
    __shared__ float partial[THREADS];

    int b = blockIdx.x;
    int tid = threadIdx.x;
    long M = (long)F * D1 * D2;
    const float* xb = x + b * M;
    float* yb = y + b * M;

    // pass 1: mean
    float s = 0.0f;
    for (long i = tid; i < M; i += blockDim.x)
        s += xb[i];
    partial[tid] = s;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride)
            partial[tid] += partial[tid + stride];
        __syncthreads();
    }
    float mean = partial[0] / (float)M;
    __syncthreads();

    // pass 2: variance
    float sq = 0.0f;
    for (long i = tid; i < M; i += blockDim.x) {
        float d = xb[i] - mean;
        sq += d * d;
    }
    partial[tid] = sq;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride)
            partial[tid] += partial[tid + stride];
        __syncthreads();
    }
    float rstd = rsqrtf(partial[0] / (float)M + eps);

    // pass 3: normalize and apply the affine
    for (long i = tid; i < M; i += blockDim.x)
        yb[i] = (xb[i] - mean) * rstd * weight[i] + bias[i];
}
