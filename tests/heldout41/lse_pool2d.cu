// y[n, c] = (1 / r) * log(mean_{h,w} exp(r * x[n, c, h, w])): log-sum-exp pooling (Pinheiro & Collobert's LSE pooling, the smooth max between average and max pooling used by weakly supervised localisation heads: `(torch.logsumexp(r * x.flatten(2), dim=2) - math.log(H * W)) / r`), r = 10, on ResNet-50 features of 448 x 448 images, [128, 2048, 14, 14] -> [128, 2048], fp32; one block of 128 threads a (sample, channel) plane, each thread keeping an online (max, rescaled sum) pair in the `fmaxf` form over its strided pixels, the pairs merged by a `__shared__` tree over two arrays through a `__device__` helper that skips two empty states, thread 0 writing; `#define POOL_THREADS`, `size_t` plane offset; x `normal(0,1)`.

#define POOL_THREADS 128

__device__ __forceinline__ void lse_combine(float& m, float& s, float m_b, float s_b)
{
    const float m_new = fmaxf(m, m_b);
    if (m_new == -INFINITY)
        return;
    s = s * expf(m - m_new) + s_b * expf(m_b - m_new);
    m = m_new;
}

/* @optiml
   sizes:  N=128 C=2048 HW=196   # x 196 MiB in, y 1 MiB out; 0.26 GFLOP
   check:  N=1 C=1 HW=1; N=2 C=3 HW=3; N=2 C=4 HW=127; N=1 C=5 HW=128; N=3 C=2 HW=129; N=2 C=8 HW=196; N=1 C=3 HW=1000; N=1 C=2 HW=3137
   x:      in  float[N*C*HW] normal(0,1)
   y:      out float[N*C]
   r:      10.0
   launch: grid=N*C block=128
   flops:  5*N*C*HW
   tol:    1e-5
*/
__global__ void lse_pool2d(const float* __restrict__ x, float* __restrict__ y, float r, int N, int C, int HW)
{
    __shared__ float s_max[POOL_THREADS];
    __shared__ float s_sum[POOL_THREADS];

    const int tid = threadIdx.x;
    const float* plane = x + (size_t)blockIdx.x * HW;

    float m = -INFINITY;
    float s = 0.0f;
    for (int i = tid; i < HW; i += POOL_THREADS) {
        const float v = r * plane[i];
        const float m_new = fmaxf(m, v);
        s = s * expf(m - m_new) + expf(v - m_new);
        m = m_new;
    }
    s_max[tid] = m;
    s_sum[tid] = s;
    __syncthreads();

    for (int stride = POOL_THREADS / 2; stride > 0; stride >>= 1) {
        if (tid < stride) {
            float mm = s_max[tid];
            float ss = s_sum[tid];
            lse_combine(mm, ss, s_max[tid + stride], s_sum[tid + stride]);
            s_max[tid] = mm;
            s_sum[tid] = ss;
        }
        __syncthreads();
    }

    if (tid == 0)
        y[blockIdx.x] = (s_max[0] + logf(s_sum[0] / HW)) / r;
}
