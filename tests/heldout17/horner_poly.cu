// y[i] = coef[0] + coef[1] x + ... + coef[DEG] x^DEG with x = x[i], evaluated by Horner's rule (a degree-7 polynomial, coefficients lowest degree first, as a fitted approximation would be applied); a grid-stride loop.
/* @optiml
   sizes:    n=33554432                 # 2^25 floats: 128 MiB in, 128 MiB out, 32 bytes of coefficients
   check:    n=1; n=7; n=1000; n=65537
   template: T=float DEG=7
   x:        in  T[n]
   coef:     in  T[DEG+1]
   y:        out T[n]
   launch:   grid=min(cdiv(n,256),8192) block=256
   flops:    2*DEG*n
*/
template <typename T, int DEG>
__global__ void horner_eval(const T* __restrict__ x, const T* __restrict__ coef, T* __restrict__ y, size_t n)
{
    size_t stride = (size_t)blockDim.x * gridDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        T xi = x[i];
        T acc = coef[DEG];
        for (int k = DEG - 1; k >= 0; --k)
            acc = acc * xi + coef[k];
        y[i] = acc;
    }
}

template __global__ void horner_eval<float, 7>(const float* __restrict__, const float* __restrict__,
                                               float* __restrict__, size_t);
