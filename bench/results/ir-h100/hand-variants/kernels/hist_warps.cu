// A copy per warp: h[warp][bin]; 64 bytes a thread as four 16-byte reads.
__global__ void __launch_bounds__(256) byte_histogram(const unsigned char* __restrict__ data, unsigned int* hist, size_t n)
{
    __shared__ unsigned int h[8][256];
    for (int i = threadIdx.x; i < 8 * 256; i += 256) (&h[0][0])[i] = 0;
    __syncthreads();
    unsigned int* mine = h[threadIdx.x >> 5];
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
                for (int b = 0; b < 4; ++b) atomicAdd(&mine[(w[k] >> (8 * b)) & 255u], 1u);
            }
        } else {
            for (size_t i = at; i < n && i < at + 16; ++i) atomicAdd(&mine[data[i]], 1u);
        }
    }
    __syncthreads();
    unsigned int total = 0;
    #pragma unroll
    for (int w = 0; w < 8; ++w) total += h[w][threadIdx.x];
    if (total) atomicAdd(&hist[threadIdx.x], total);
}
