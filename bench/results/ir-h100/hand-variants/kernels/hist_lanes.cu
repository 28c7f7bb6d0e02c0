// Per-lane counters: h[bin*32 + lane], a warp's 32 increments in 32 banks; 64 bytes a thread as four 16-byte reads.
__global__ void __launch_bounds__(256) byte_histogram(const unsigned char* __restrict__ data, unsigned int* hist, size_t n)
{
    __shared__ unsigned int h[256 * 32];
    for (int i = threadIdx.x; i < 256 * 32; i += 256) h[i] = 0;
    __syncthreads();
    const int lane = threadIdx.x & 31;
    const size_t base = (size_t)blockIdx.x * 16384 + threadIdx.x * 16;
    #pragma unroll
    for (int r = 0; r < 4; ++r) {
        size_t at = base + (size_t)r * 4096;
        if (at + 16 <= n) {
            uint4 q = *reinterpret_cast<const uint4*>(data + at);
            unsigned int w[4] = {q.x, q.y, q.z, q.w};
            #pragma unroll
            for (int k = 0; k < 4; ++k) {
                #pragma unroll
                for (int b = 0; b < 4; ++b) atomicAdd(&h[((w[k] >> (8 * b)) & 255u) * 32 + lane], 1u);
            }
        } else {
            for (size_t i = at; i < n && i < at + 16; ++i) atomicAdd(&h[data[i] * 32 + lane], 1u);
        }
    }
    __syncthreads();
    const int bin = threadIdx.x;
    unsigned int total = 0;
    #pragma unroll 8
    for (int l = 0; l < 32; ++l) total += h[bin * 32 + ((l + bin) & 31)];
    if (total) atomicAdd(&hist[bin], total);
}
