// y[n, c, p] = weight[c] * (x[n, c, p] - u) / sqrt(s + 1e-6) + bias[c] with u and s the mean and biased variance over the C channels at pixel p: ConvNeXt's channels-first LayerNorm (`LayerNorm(dim, eps=1e-6, data_format="channels_first")`: `u = x.mean(1, keepdim=True); s = (x - u).pow(2).mean(1, keepdim=True); x = (x - u) / torch.sqrt(s + self.eps); x = self.weight[:, None, None] * x + self.bias[:, None, None]`, the norm after the stem and in the downsampling layers), ConvNeXt-T's stem output [64, 96, 56, 56], NCHW fp32; 2-D blocks of 32 x 8 threads on a 2-D grid (pixel tiles, sample): `threadIdx.x` picks one of 32 consecutive pixels and `threadIdx.y` strides the channels, reading down a channel column with the plane pitch HW, partial sums reduced over `threadIdx.y` by a `__shared__ float red[CLANES][PIX]` tree, two passes (mean, centred variance), then every thread writing its own channels; `#define PIX` / `CLANES`, `size_t` offsets, the pixels past the end kept in the barriers; x `normal(0,1)`, weight `uniform(0.5,1.5)`, bias `uniform(-0.5,0.5)`.

#define PIX 32       // pixels a block (threadIdx.x)
#define CLANES 8     // threads over the channels (threadIdx.y)

/* @optiml
   sizes:  N=64 C=96 HW=3136   # x 73.5 MiB in, weight / bias 384 B each in, y 73.5 MiB out; 0.15 GFLOP
   check:  N=1 C=1 HW=1; N=2 C=3 HW=5; N=1 C=7 HW=33; N=2 C=96 HW=49; N=3 C=8 HW=100; N=1 C=17 HW=64; N=2 C=200 HW=31; N=1 C=9 HW=300
   x:      in  float[N*C*HW] normal(0,1)
   weight: in  float[C] uniform(0.5,1.5)
   bias:   in  float[C] uniform(-0.5,0.5)
   y:      out float[N*C*HW]
   eps:    1e-6
   launch: grid=(cdiv(HW,32),N) block=(32,8)
   flops:  8*N*C*HW
   tol:    1e-5
*/
__global__ void convnext_layernorm_channels_first(const float* __restrict__ x, const float* __restrict__ weight,
                                                  const float* __restrict__ bias, float* __restrict__ y,
                                                  int N, int C, int HW, float eps)
{
    __shared__ float red[CLANES][PIX];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int p = blockIdx.x * PIX + tx;
    const int n = blockIdx.y;
    const bool valid = p < HW;
    const size_t base = (size_t)n * C * HW + p;     // x[n, 0, p]; channel c is at base + c * HW

    float s = 0.0f;
    if (valid)
        for (int c = ty; c < C; c += CLANES)
            s += x[base + (size_t)c * HW];
    red[ty][tx] = s;
    __syncthreads();
    for (int k = CLANES / 2; k > 0; k >>= 1) {
        if (ty < k)
            red[ty][tx] += red[ty + k][tx];
        __syncthreads();
    }
    const float u = red[0][tx] / C;
    __syncthreads();

    float q = 0.0f;
    if (valid)
        for (int c = ty; c < C; c += CLANES) {
            float d = x[base + (size_t)c * HW] - u;
            q += d * d;
        }
    red[ty][tx] = q;
    __syncthreads();
    for (int k = CLANES / 2; k > 0; k >>= 1) {
        if (ty < k)
            red[ty][tx] += red[ty + k][tx];
        __syncthreads();
    }
    const float inv = 1.0f / sqrtf(red[0][tx] / C + eps);

    if (valid)
        for (int c = ty; c < C; c += CLANES) {
            size_t i = base + (size_t)c * HW;
            y[i] = weight[c] * ((x[i] - u) * inv) + bias[c];
        }
}
