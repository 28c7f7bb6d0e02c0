// y = x / ||x||_F, the Frobenius norm sqrt(sum x^2) over the whole tensor: KernelBench level 1's FrobeniusNorm (x / torch.norm(x, p="fro")) on a [16, 64, 128, 128] activation, in one kernel; a single block of 256 threads striding over all n elements, a shared-memory tree reduction of the squares, then the same threads write x * (1 / norm).
/* @optiml
   sizes:   n=16777216                  # 2^24 floats: x 64 MiB in, y 64 MiB out; one block
   check:   n=1; n=2; n=7; n=255; n=1000; n=4099; n=40001
   x:       in  float[n]
   y:       out float[n]
   launch:  grid=1 block=256
   flops:   3*n
   tol:     1e-4
*/
__global__ void frobenius_norm_normalize(const float* x, float* y, int n)
{
    __shared__ float ssq[256];
    int tid = threadIdx.x;

    float local = 0.0f;
    int i = tid;
    while (i < n) {
        float v = x[i];
        local += v * v;
        i += blockDim.x;
    }
    ssq[tid] = local;
    __syncthreads();

    for (int half = 128; half > 0; half >>= 1) {
        if (tid < half) ssq[tid] += ssq[tid + half];
        __syncthreads();
    }

    float inv_norm = 1.0f / sqrtf(ssq[0]);
    for (i = tid; i < n; i += blockDim.x)
        y[i] = x[i] * inv_norm;
}
