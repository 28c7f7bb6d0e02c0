__global__ void __launch_bounds__(256) conv1d_valid(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ out, int n, int K)
{
    extern __shared__ float s[];
    long base = (long)blockIdx.x * 1024;
    int span = 1024 + K - 1;
    for (int j = threadIdx.x; j < span; j += 256) {
        long g = base + j;
        s[j] = g < n ? x[g] : 0.f;
    }
    __syncthreads();
    int n_out = n - K + 1;
    float acc[4] = {0.f, 0.f, 0.f, 0.f};
    for (int k = 0; k < K; ++k) {
        float wk = __ldg(w + k);
        #pragma unroll
        for (int p = 0; p < 4; ++p) acc[p] += s[threadIdx.x + p * 256 + k] * wk;
    }
    #pragma unroll
    for (int p = 0; p < 4; ++p) {
        long i = base + threadIdx.x + p * 256;
        if (i < n_out) out[i] = acc[p];
    }
}
