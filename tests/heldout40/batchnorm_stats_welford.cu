// save_mean[c] = mean, save_invstd[c] = 1 / sqrt(var + eps) (biased variance), running_mean[c] = (1 - momentum) * running_mean[c] + momentum * mean, running_var[c] = (1 - momentum) * running_var[c] + momentum * var * n / (n - 1) over the N x H x W values of channel c of NCHW x: the statistics half of nn.BatchNorm2d's training forward (`torch.batch_norm_stats` / `batch_norm_update_stats`: the saved mean and inverse std and the running buffers that `F.batch_norm(x, running_mean, running_var, training=True, momentum=0.1, eps=1e-5)` updates in place), ResNet-50's layer1 output [64, 256, 56, 56], fp32; one block of 512 threads a channel (`__launch_bounds__(THREADS)`), each thread running Welford's update (mean, M2, count) over its strided elements of every sample's plane, the triples merged by Chan's pairwise formula in a `__shared__` tree over three arrays, thread 0 writing the four per-channel results; `#define THREADS`, `size_t` plane offsets, `__restrict__`; x `normal(0.5,2)`, running_mean `uniform(-0.5,0.5)`, running_var `uniform(0.5,1.5)`.

#define THREADS 512

/* @optiml
   sizes:        N=64 C=256 HW=3136   # x 196 MiB in, running_mean / running_var 1 KiB each in and out (inout), save_mean / save_invstd 1 KiB each out; 0.5 GFLOP
   check:        N=1 C=3 HW=2; N=2 C=5 HW=1; N=3 C=4 HW=49; N=2 C=3 HW=600; N=5 C=2 HW=257; N=4 C=7 HW=1025; N=1 C=2 HW=4099; N=7 C=6 HW=31
   input:        in    float[N*C*HW] normal(0.5,2)
   save_mean:    out   float[C]
   save_invstd:  out   float[C]
   running_mean: inout float[C] uniform(-0.5,0.5)
   running_var:  inout float[C] uniform(0.5,1.5)
   momentum:     0.1
   epsilon:      1e-5
   launch:       grid=C block=512
   flops:        8*N*C*HW
   tol:          1e-5
*/
__global__ void __launch_bounds__(THREADS)
batch_norm_collect_statistics(const float* __restrict__ input, float* __restrict__ save_mean,
                              float* __restrict__ save_invstd, float* __restrict__ running_mean,
                              float* __restrict__ running_var, float momentum, float epsilon, int N, int C, int HW)
{
    __shared__ float sh_mean[THREADS];
    __shared__ float sh_m2[THREADS];
    __shared__ float sh_n[THREADS];

    const int c = blockIdx.x;
    const int tid = threadIdx.x;

    // Welford over this thread's elements of channel c
    float mean = 0.0f, m2 = 0.0f, n = 0.0f;
    for (int b = 0; b < N; ++b) {
        const float* plane = input + ((size_t)b * C + c) * HW;
        for (int i = tid; i < HW; i += THREADS) {
            float v = plane[i];
            n += 1.0f;
            float delta = v - mean;
            mean += delta / n;
            m2 += delta * (v - mean);
        }
    }
    sh_mean[tid] = mean;
    sh_m2[tid] = m2;
    sh_n[tid] = n;
    __syncthreads();

    // merge pairs of partial results (Chan et al.)
    for (int stride = THREADS / 2; stride > 0; stride >>= 1) {
        if (tid < stride) {
            float nb = sh_n[tid + stride];
            if (nb > 0.0f) {
                float na = sh_n[tid];
                float nab = na + nb;
                float delta = sh_mean[tid + stride] - sh_mean[tid];
                sh_mean[tid] += delta * (nb / nab);
                sh_m2[tid] += sh_m2[tid + stride] + delta * delta * (na * nb / nab);
                sh_n[tid] = nab;
            }
        }
        __syncthreads();
    }

    if (tid == 0) {
        float mu = sh_mean[0];
        float count = sh_n[0];
        float var = sh_m2[0] / count;
        float unbiased_var = sh_m2[0] / (count - 1.0f);
        save_mean[c] = mu;
        save_invstd[c] = 1.0f / sqrtf(var + epsilon);
        running_mean[c] = (1.0f - momentum) * running_mean[c] + momentum * mu;
        running_var[c] = (1.0f - momentum) * running_var[c] + momentum * unbiased_var;
    }
}
