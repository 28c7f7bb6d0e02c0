// y = (x - mean(x)) / std(x), the mean and the unbiased (n - 1) standard deviation over the whole tensor: (x - x.mean()) / x.std(), the global standardization of a whole array (torch.std's default correction=1), in one kernel; a single block of 256 threads, each walking a contiguous chunk of ceil(n / 256) elements, partial sums combined by thread 0 from shared memory, a mean pass, a squared-deviation pass and a write pass.
/* @optiml
   sizes:   n=16777216                  # 2^24 floats: x 64 MiB in, y 64 MiB out; one block
   check:   n=2; n=3; n=7; n=256; n=1000; n=4099; n=40001
   x:       in  float[n] normal(2,3)
   y:       out float[n]
   launch:  grid=1 block=256
   flops:   6*n
   tol:     1e-4
*/
__global__ void standardize_tensor(const float* x, float* y, unsigned int n)
{
    __shared__ float part[256];
    __shared__ float mean_sh;
    __shared__ float inv_std_sh;

    unsigned int tid = threadIdx.x;
    unsigned int chunk = (n + blockDim.x - 1) / blockDim.x;
    unsigned int begin = tid * chunk;
    unsigned int end = begin + chunk;
    if (end > n) end = n;

    float s = 0.0f;
    for (unsigned int i = begin; i < end; i++)
        s += x[i];
    part[tid] = s;
    __syncthreads();
    if (tid == 0) {
        float total = 0.0f;
        for (unsigned int k = 0; k < blockDim.x; k++)
            total += part[k];
        mean_sh = total / n;
    }
    __syncthreads();
    float mean = mean_sh;

    float sq = 0.0f;
    for (unsigned int i = begin; i < end; i++) {
        float d = x[i] - mean;
        sq += d * d;
    }
    part[tid] = sq;
    __syncthreads();
    if (tid == 0) {
        float total = 0.0f;
        for (unsigned int k = 0; k < blockDim.x; k++)
            total += part[k];
        inv_std_sh = 1.0f / sqrtf(total / (n - 1));
    }
    __syncthreads();
    float inv_std = inv_std_sh;

    for (unsigned int i = begin; i < end; i++)
        y[i] = (x[i] - mean) * inv_std;
}
