// y = max(0, x) + min(0, alpha * (exp(x / alpha) - 1)), alpha = 0.5: `F.celu(x, alpha=0.5)` (`nn.CELU(0.5)`, a KernelBench-style activation with a parameter) on 15728641 fp32 values; one thread per element with a size_t index and an early return, a __device__ __forceinline__ helper with expm1f for the negative side.

__device__ __forceinline__ float celu_op(float x, float alpha)
{
    return x > 0.0f ? x : alpha * expm1f(x / alpha);
}

/* @optiml
   sizes:   n=15728641                  # x 60 MiB in, y 60 MiB out
   check:   n=1; n=2; n=255; n=256; n=257; n=1000; n=70001
   x:       in  float[n] normal(0,2)
   y:       out float[n]
   alpha:   0.5
   launch:  grid=cdiv(n,256) block=256
   flops:   4*n
   tol:     1e-5
*/
__global__ void celu_forward(const float* x, float* y, float alpha, int n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (size_t)n)
        return;
    y[i] = celu_op(x[i], alpha);
}
