// y[i] = x[i] if x[i] > 0 else slope * x[i], over n elements of type T (instantiated with T = float).
template <typename T>
__device__ inline T leaky(T v, T slope)
{
    return v > T(0) ? v : slope * v;
}

/* @optiml
   template: T=float
   sizes:    n=16777216
   x:        in T[n]
   y:        out T[n]
   slope:    0.5
   launch:   grid=cdiv(n,256) block=256
*/
template <typename T>
__global__ void leaky_relu(const T* x, T* y, T slope, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = leaky(x[i], slope);
}

template __global__ void leaky_relu<float>(const float*, float*, float, int);
