// 32x32 tile as the stage schedule, but one tile a block (no grid-stride loop), batch from blockIdx.z.
__global__ void __launch_bounds__(256) swap_last_two(const float* __restrict__ x, float* __restrict__ out, int B, int M, int N)
{
    __shared__ float tile[32][33];
    const int b = blockIdx.z;
    const int m0 = blockIdx.x * 32, n0 = blockIdx.y * 32;
    const float* src = x + (size_t)b * M * N;
    float* dst = out + (size_t)b * N * M;
    #pragma unroll
    for (int r = threadIdx.y; r < 32; r += 8) {
        int m = m0 + r, n = n0 + threadIdx.x;
        if (m < M && n < N) tile[r][threadIdx.x] = src[(size_t)m * N + n];
    }
    __syncthreads();
    #pragma unroll
    for (int r = threadIdx.y; r < 32; r += 8) {
        int n = n0 + r, m = m0 + threadIdx.x;
        if (m < M && n < N) dst[(size_t)n * M + m] = tile[threadIdx.x][r];
    }
}
