// y[i] = min(max(alpha * x[i], 0), 6): ReLU6 of a scaled input over n elements of type T (instantiated with T = float).
template <typename T>
__device__ __forceinline__ T relu6_op(T v) { return v < T(0) ? T(0) : (v > T(6) ? T(6) : v); }

/* @optiml
   sizes:    n=33554432                 # 2^25 floats: 128 MiB in, 128 MiB out
   check:    n=1; n=255; n=1000003
   template: T=float
   x:        in  T[n]
   y:        out T[n]
   alpha:    8.0
   launch:   grid=cdiv(n,256) block=256
   flops:    3*n
*/
template <typename T>
__global__ void relu6(const T* x, T* y, T alpha, int n)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i >= n) return;
    y[i] = relu6_op(alpha * x[i]);
}

template __global__ void relu6<float>(const float*, float*, float, int);
