// Warp per row, 8 rows a block; a row of at most 1024 floats held in registers across the max and sum passes.
__device__ __forceinline__ float warp_max(float v) { for (int o = 16; o; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o)); return v; }
__device__ __forceinline__ float warp_sum(float v) { for (int o = 16; o; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o); return v; }
__global__ void __launch_bounds__(256) cross_entropy_rows(const float* __restrict__ logits, const int* __restrict__ labels, float* __restrict__ loss, int rows, int cols)
{
    int row = blockIdx.x * 8 + threadIdx.y, lane = threadIdx.x;
    if (row >= rows) return;
    const float* r = logits + (long long)row * cols;
    float m = -__int_as_float(0x7f800000), s = 0.f;
    if (cols <= 1024 && cols % 4 == 0 && ((unsigned long long)r & 15) == 0) {
        float4 v[8];
        #pragma unroll
        for (int j = 0; j < 8; ++j) {
            int c = (lane + j * 32) * 4;
            v[j] = c < cols ? *reinterpret_cast<const float4*>(r + c) : make_float4(m, m, m, m);
            m = fmaxf(m, fmaxf(fmaxf(v[j].x, v[j].y), fmaxf(v[j].z, v[j].w)));
        }
        m = warp_max(m);
        #pragma unroll
        for (int j = 0; j < 8; ++j) {
            int c = (lane + j * 32) * 4;
            if (c < cols) s += expf(v[j].x - m) + expf(v[j].y - m) + expf(v[j].z - m) + expf(v[j].w - m);
        }
    } else if (cols <= 1024) {
        float v[32];
        #pragma unroll
        for (int j = 0; j < 32; ++j) { int c = lane + j * 32; v[j] = c < cols ? r[c] : m; m = fmaxf(m, v[j]); }
        m = warp_max(m);
        #pragma unroll
        for (int j = 0; j < 32; ++j) { int c = lane + j * 32; if (c < cols) s += expf(v[j] - m); }
    } else {
        for (int c = lane; c < cols; c += 32) m = fmaxf(m, r[c]);
        m = warp_max(m);
        for (int c = lane; c < cols; c += 32) s += expf(r[c] - m);
    }
    s = warp_sum(s);
    if (lane == 0) loss[row] = logf(s) + m - r[labels[row]];
}
