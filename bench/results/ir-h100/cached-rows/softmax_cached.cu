// 128 threads a row; a row of at most 1024 floats held in registers (two float4 a thread): read once, written once.
__device__ __forceinline__ float warp_max(float v) { for (int o = 16; o; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o)); return v; }
__device__ __forceinline__ float warp_sum(float v) { for (int o = 16; o; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o); return v; }
__global__ void __launch_bounds__(128) softmax_rows(const float* __restrict__ x, float* __restrict__ y, int n_rows, int n_cols)
{
    __shared__ float part[4];
    const int row = blockIdx.x, t = threadIdx.x;
    const float* in = x + (long long)row * n_cols;
    float* out = y + (long long)row * n_cols;
    float m = -__int_as_float(0x7f800000), s = 0.f;
    const bool fits = n_cols <= 1024 && n_cols % 4 == 0 && ((unsigned long long)in & 15) == 0 && ((unsigned long long)out & 15) == 0;
    float4 v[2];
    if (fits) {
        #pragma unroll
        for (int j = 0; j < 2; ++j) {
            int c = (t + j * 128) * 4;
            v[j] = c < n_cols ? *reinterpret_cast<const float4*>(in + c) : make_float4(m, m, m, m);
            m = fmaxf(m, fmaxf(fmaxf(v[j].x, v[j].y), fmaxf(v[j].z, v[j].w)));
        }
    } else {
        for (int c = t; c < n_cols; c += 128) m = fmaxf(m, in[c]);
    }
    m = warp_max(m);
    if ((t & 31) == 0) part[t >> 5] = m;
    __syncthreads();
    m = fmaxf(fmaxf(part[0], part[1]), fmaxf(part[2], part[3]));
    __syncthreads();
    if (fits) {
        #pragma unroll
        for (int j = 0; j < 2; ++j) {
            v[j].x = __expf(v[j].x - m); v[j].y = __expf(v[j].y - m); v[j].z = __expf(v[j].z - m); v[j].w = __expf(v[j].w - m);
            if ((t + j * 128) * 4 < n_cols) s += v[j].x + v[j].y + v[j].z + v[j].w;
        }
    } else {
        for (int c = t; c < n_cols; c += 128) s += __expf(in[c] - m);
    }
    s = warp_sum(s);
    if ((t & 31) == 0) part[t >> 5] = s;
    __syncthreads();
    s = part[0] + part[1] + part[2] + part[3];
    const float inv = 1.0f / s;
    if (fits) {
        #pragma unroll
        for (int j = 0; j < 2; ++j) {
            int c = (t + j * 128) * 4;
            if (c < n_cols) *reinterpret_cast<float4*>(out + c) = make_float4(v[j].x * inv, v[j].y * inv, v[j].z * inv, v[j].w * inv);
        }
    } else {
        for (int c = t; c < n_cols; c += 128) out[c] = __expf(in[c] - m) * inv;
    }
}
