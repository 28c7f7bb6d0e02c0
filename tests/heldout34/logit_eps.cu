// y = log(z / (1 - z)), z = clamp(x, eps, 1 - eps) with eps = 1e-6: `torch.logit(x, eps=1e-6)` (the inverse sigmoid of probabilities, as a calibration step or a diffusion model's logit-space transform applies it) on 33554432 fp32 probabilities `uniform(-0.05,1.05)` (about 9% outside [eps, 1 - eps]); ported from a CPU loop: a `ptrdiff_t` grid-stride `for` capped at 1024 blocks of 256 (128 elements a thread at the benchmark size) with the stride hoisted from `gridDim`, the clamp bounds hoisted into `const float`s, the clamp a nested ternary, `log` (the double function's name) on a float, `n` a `ptrdiff_t` size parameter (<cstddef>), eps a float argument with its own contract line.
#include <cstddef>

/* @optiml
   sizes:   n=33554432   # x 128 MiB in, y 128 MiB out; 0.13 GFLOP
   check:   n=1; n=7; n=257; n=1000; n=4099; n=300001
   x:       in  float[n] uniform(-0.05,1.05)
   y:       out float[n]
   eps:     1e-6
   launch:  grid=min(cdiv(n,256),1024) block=256
   flops:   4*n
   tol:     1e-5
*/
__global__ void logit_eps(const float* x, float* y, float eps, ptrdiff_t n)
{
    const float lo = eps;
    const float hi = 1.0f - eps;
    const ptrdiff_t stride = static_cast<ptrdiff_t>(blockDim.x) * gridDim.x;
    for (ptrdiff_t i = static_cast<ptrdiff_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
        const float v = x[i];
        const float z = v < lo ? lo : (v > hi ? hi : v);
        y[i] = log(z / (1.0f - z));
    }
}
