// out[n] = sum_{c, ph, pw} sigmoid(mean_{POOL x POOL window} conv[n][c]) with conv = nn.Conv2d(in_ch, out_ch, ksize) (valid, bias) and the windows of nn.AvgPool2d(POOL) (stride POOL, floor mode): KernelBench level 2's Conv2d_AvgPool_Sigmoid_Sum (`x = self.conv(x); x = self.avg_pool(x); x = torch.sigmoid(x); x = torch.sum(x, dim=[1, 2, 3])`) at KernelBench's sizes (batch 128, 8 x 384 x 384 -> 64 x 382 x 382 -> pooled by 4 to 64 x 95 x 95 -> [128]), NCHW fp32; one thread per pooled output on a 2-D grid (the pooled plane flattened on x in blocks of 256, blockIdx.y = n * out_ch + c), the pooled index split by / and %, early return, a `__device__ __forceinline__` helper for one convolution output called for the POOL x POOL window, and one `atomicAdd` of each sigmoid into the zero-initialised per-sample sum; `template <int POOL>` (4), the kernel size a size symbol; x `uniform(0,1)` (`torch.rand`), weight and bias `uniform(-0.118,0.118)` (nn.Conv2d's bound 1/sqrt(8*9)).

__device__ __forceinline__ float conv2d_at(const float* x, const float* weight, const float* bias, int n, int c,
                                           int oy, int ox, int in_ch, int height, int width, int ksize)
{
    float acc = bias[c];
    for (int ci = 0; ci < in_ch; ci++) {
        const float* xp = x + ((long)(n * in_ch + ci) * height + oy) * width + ox;
        const float* wp = weight + (c * in_ch + ci) * ksize * ksize;
        for (int ky = 0; ky < ksize; ky++)
            for (int kx = 0; kx < ksize; kx++)
                acc += xp[ky * width + kx] * wp[ky * ksize + kx];
    }
    return acc;
}

/* @optiml
   sizes:    batch=128 in_ch=8 out_ch=64 height=384 width=384 ksize=3   # x 576 MiB, weight 18 KiB, bias 256 B in, out 512 B in and out; 171.5 GFLOP
   check:    batch=1 in_ch=1 out_ch=1 height=6 width=6 ksize=3; batch=2 in_ch=3 out_ch=5 height=9 width=11 ksize=3; batch=3 in_ch=2 out_ch=4 height=70 width=13 ksize=3; batch=1 in_ch=8 out_ch=64 height=22 width=23 ksize=3; batch=5 in_ch=1 out_ch=3 height=4 width=7 ksize=1; batch=2 in_ch=4 out_ch=2 height=40 width=131 ksize=5; batch=1 in_ch=1 out_ch=1 height=4 width=4 ksize=1
   template: POOL=4
   x:        in    float[batch*in_ch*height*width] uniform(0,1)
   weight:   in    float[out_ch*in_ch*ksize*ksize] uniform(-0.118,0.118)
   bias:     in    float[out_ch] uniform(-0.118,0.118)
   out:      inout float[batch] const(0)
   launch:   grid=(cdiv(((height-ksize+1)/POOL)*((width-ksize+1)/POOL),256),batch*out_ch) block=256
   flops:    2*batch*out_ch*((height-ksize+1)/POOL)*((width-ksize+1)/POOL)*POOL*POOL*in_ch*ksize*ksize + 6*batch*out_ch*((height-ksize+1)/POOL)*((width-ksize+1)/POOL)
   tol:      1e-3
*/
template <int POOL>
__global__ void conv2d_avgpool_sigmoid_sum(const float* x, const float* weight, const float* bias, float* out,
                                           int batch, int in_ch, int out_ch, int height, int width, int ksize)
{
    int PH = (height - ksize + 1) / POOL;
    int PW = (width - ksize + 1) / POOL;
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= PH * PW)
        return;
    int n = blockIdx.y / out_ch;
    int c = blockIdx.y % out_ch;
    int ph = p / PW;
    int pw = p % PW;

    float sum = 0.0f;
    for (int dy = 0; dy < POOL; dy++)
        for (int dx = 0; dx < POOL; dx++)
            sum += conv2d_at(x, weight, bias, n, c, ph * POOL + dy, pw * POOL + dx, in_ch, height, width, ksize);
    float avg = sum / (POOL * POOL);

    atomicAdd(out + n, 1.0f / (1.0f + expf(-avg)));
}
