__global__ void __launch_bounds__(256) heat1d_5pt(const float* __restrict__ u, float* __restrict__ u_next, float r, int n)
{
    __shared__ float s[1024 + 4];
    long base = (long)blockIdx.x * 1024;
    for (int j = threadIdx.x; j < 1028; j += 256) {
        long g = base + j - 2;
        s[j] = (g >= 0 && g < n) ? u[g] : 0.f;
    }
    __syncthreads();
    #pragma unroll
    for (int p = 0; p < 4; ++p) {
        int j = threadIdx.x + p * 256;
        long i = base + j;
        if (i >= n) break;
        float c = s[j + 2];
        if (i < 2 || i >= n - 2) { u_next[i] = c; continue; }
        float lap = (-s[j] + 16.0f * s[j + 1] - 30.0f * c + 16.0f * s[j + 3] - s[j + 4]) / 12.0f;
        u_next[i] = c + r * lap;
    }
}
