__global__ void __launch_bounds__(256) heat1d_5pt(const float* __restrict__ u, float* __restrict__ u_next, float r, int n)
{
    long i0 = ((long)blockIdx.x * 256 + threadIdx.x) * 4;
    int lane = threadIdx.x & 31;
    float v[8];
    bool whole = i0 + 3 < n;
    if (whole) {
        float4 q = *reinterpret_cast<const float4*>(u + i0);
        v[2] = q.x; v[3] = q.y; v[4] = q.z; v[5] = q.w;
    } else {
        for (int t = 0; t < 4; ++t) v[2 + t] = i0 + t < n ? u[i0 + t] : 0.f;
    }
    float l0 = __shfl_up_sync(0xffffffffu, v[4], 1), l1 = __shfl_up_sync(0xffffffffu, v[5], 1);
    float r0 = __shfl_down_sync(0xffffffffu, v[2], 1), r1 = __shfl_down_sync(0xffffffffu, v[3], 1);
    if (lane == 0) { l0 = i0 - 2 >= 0 && i0 - 2 < n ? u[i0 - 2] : 0.f; l1 = i0 - 1 >= 0 && i0 - 1 < n ? u[i0 - 1] : 0.f; }
    if (lane == 31) { r0 = i0 + 4 < n ? u[i0 + 4] : 0.f; r1 = i0 + 5 < n ? u[i0 + 5] : 0.f; }
    v[0] = l0; v[1] = l1; v[6] = r0; v[7] = r1;
    float o[4];
    #pragma unroll
    for (int t = 0; t < 4; ++t) {
        long i = i0 + t;
        float c = v[t + 2];
        if (i < 2 || i >= n - 2) o[t] = c;
        else o[t] = c + r * ((-v[t] + 16.0f * v[t + 1] - 30.0f * c + 16.0f * v[t + 3] - v[t + 4]) / 12.0f);
    }
    if (whole) *reinterpret_cast<float4*>(u_next + i0) = make_float4(o[0], o[1], o[2], o[3]);
    else for (int t = 0; t < 4; ++t) if (i0 + t < n) u_next[i0 + t] = o[t];
}
