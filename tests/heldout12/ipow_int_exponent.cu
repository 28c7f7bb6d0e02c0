// y[i] = x[i]^e for an integer exponent e >= 0 (here 5), computed by e repeated multiplications, over n floats.
#define THREADS 256

/* @optiml
   sizes:  n=33554432                   # 2^25 floats: 128 MiB in, 128 MiB out
   check:  n=1; n=255; n=1000003
   x:      in  float[n]
   y:      out float[n]
   e:      5
   launch: grid=cdiv(n,256) block=256
   flops:  5*n
*/
__global__ void ipow(const float* __restrict__ x, float* __restrict__ y, int e, size_t n)
{
    size_t i = (size_t)blockIdx.x * THREADS + threadIdx.x;
    if (i >= n)
        return;
    const float v = x[i];
    float r = 1.0f;
    for (int k = 0; k < e; ++k)
        r *= v;
    y[i] = r;
}
