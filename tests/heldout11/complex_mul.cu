// c[i] = a[i] * b[i] for n complex numbers stored interleaved (re, im) in float arrays of length 2n: (ar*br - ai*bi, ar*bi + ai*br), e.g. the pointwise product of two FFT spectra.
/* @optiml
   sizes:  n=16777216                   # 2^24 complex floats: 2 x 128 MiB in, 128 MiB out
   check:  n=1; n=255; n=1000003
   a:      in  float[2*n]
   b:      in  float[2*n]
   c:      out float[2*n]
   launch: grid=cdiv(n,256) block=256
   flops:  6*n
*/
__global__ void complex_mul(const float* a, const float* b, float* c, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) {
        float ar = a[2 * i], ai = a[2 * i + 1];
        float br = b[2 * i], bi = b[2 * i + 1];
        c[2 * i] = ar * br - ai * bi;
        c[2 * i + 1] = ar * bi + ai * br;
    }
}
