// 64x64 tile, block 16x16: float4 loads along n, float4 stores along m.
__global__ void __launch_bounds__(256) swap_last_two(const float* __restrict__ x, float* __restrict__ out, int B, int M, int N)
{
    __shared__ float tile[64][65];
    const int b = blockIdx.z;
    const int m0 = blockIdx.x * 64, n0 = blockIdx.y * 64;
    const int t = threadIdx.y * 16 + threadIdx.x;
    const bool whole = m0 + 64 <= M && n0 + 64 <= N && N % 4 == 0 && M % 4 == 0;
    const float* src = x + (size_t)b * M * N;
    float* dst = out + (size_t)b * N * M;
    if (whole) {
        #pragma unroll
        for (int i = 0; i < 4; ++i) {
            int e = t + i * 256;            // 1024 float4: 64 rows x 16 vectors
            int r = e / 16, q = (e % 16) * 4;
            float4 v = *reinterpret_cast<const float4*>(src + (size_t)(m0 + r) * N + n0 + q);
            tile[r][q] = v.x; tile[r][q + 1] = v.y; tile[r][q + 2] = v.z; tile[r][q + 3] = v.w;
        }
    } else {
        for (int e = t; e < 64 * 64; e += 256) {
            int r = e / 64, q = e % 64;
            if (m0 + r < M && n0 + q < N) tile[r][q] = src[(size_t)(m0 + r) * N + n0 + q];
        }
    }
    __syncthreads();
    if (whole) {
        #pragma unroll
        for (int i = 0; i < 4; ++i) {
            int e = t + i * 256;            // 64 output rows (n) x 16 vectors along m
            int r = e / 16, q = (e % 16) * 4;
            float4 v = make_float4(tile[q][r], tile[q + 1][r], tile[q + 2][r], tile[q + 3][r]);
            *reinterpret_cast<float4*>(dst + (size_t)(n0 + r) * M + m0 + q) = v;
        }
    } else {
        for (int e = t; e < 64 * 64; e += 256) {
            int r = e / 64, q = e % 64;
            if (n0 + r < N && m0 + q < M) dst[(size_t)(n0 + r) * M + m0 + q] = tile[q][r];
        }
    }
}
