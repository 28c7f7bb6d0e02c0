// y = 1.0507009873554805 * (x > 0 ? x : 1.6732632423543772 * (exp(x) - 1)): `torch.selu(x)` (KernelBench level 1's SELU activation) on a [4096, 4096] fp32 tensor, x uniform(-4, 4); one thread per element on a 1-D launch, a `template <typename T>` kernel instantiated for float, `constexpr` alpha and scale, a `__device__ __forceinline__` templated helper, `int` index, early return.

constexpr float SELU_ALPHA = 1.6732632423543772f;
constexpr float SELU_SCALE = 1.0507009873554805f;

template <typename T>
__device__ __forceinline__ T selu_op(T v)
{
    return v > T(0) ? SELU_SCALE * v : SELU_SCALE * SELU_ALPHA * (expf(v) - T(1));
}

/* @optiml
   sizes:   n=16777216   # x 64 MiB in, y 64 MiB out; 0.08 GFLOP
   check:   n=1; n=7; n=255; n=257; n=1000; n=4099
   template: T=float
   x:       in  float[n] uniform(-4,4)
   y:       out float[n]
   launch:  grid=cdiv(n,256) block=256
   flops:   5*n
   tol:     1e-5
*/
template <typename T>
__global__ void selu(const T* x, T* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    y[i] = selu_op(x[i]);
}

template __global__ void selu<float>(const float*, float*, int);
