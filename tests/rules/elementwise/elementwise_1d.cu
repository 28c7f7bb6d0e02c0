// 1-D elementwise kernels written unlike the examples: other names, index operand orders, early exits,
// unsigned indices, int arrays, in-place updates, stores on some paths only.

/* @optiml
   sizes:  count=4194304
   check:  count=1; count=3; count=1001; count=4099
   xs:     in    float[count]
   ys:     inout float[count]
   alpha:  1.5
   launch: grid=cdiv(count,128) block=128
   flops:  2*count
*/
__global__ void saxpy_early_exit(float alpha, const float* xs, float* ys, int count)
{
    int idx = threadIdx.x + blockDim.x * blockIdx.x;
    if (idx >= count) return;
    ys[idx] = alpha * xs[idx] + ys[idx];
}

/* @optiml
   sizes:  len=8388608
   check:  len=1; len=3; len=4098; len=255
   src:      in  float[len]
   dst:      out float[len]
   positive: out int[len]
   lo:       -0.5
   hi:       0.5
   launch: grid=cdiv(len,256) block=256
*/
__global__ void clamp_and_flag(const float* __restrict__ src, float* dst, int* positive, float lo, float hi,
                               unsigned int len)
{
    unsigned int t = (blockDim.x * blockIdx.x) + threadIdx.x;
    if (len > t) {
        // the index takes part in the value, not only in the addresses
        const float v = src[t] + 0.25f * (t % 3);
        dst[t] = fminf(fmaxf(v, lo), hi);
        positive[t] = v > 0.0f ? 1 : 0;
    }
}

/* @optiml
   sizes:  n=2000000
   check:  n=1; n=2; n=7; n=1025
   in:     in    float[n]
   out:    inout float[n]
   threshold: 0.25
   launch: grid=cdiv(n,512) block=512
*/
__global__ void keep_above(const float* in, float* out, float threshold, int n)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n) {
        return;
    }
    float v = in[k];
    if (v > threshold) {
        out[k] = v;   // elements at or below the threshold keep their value
    }
}
