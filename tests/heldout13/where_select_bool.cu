// out[i] = cond[i] ? a[i] : b[i]: element-wise select between two tensors by a boolean mask (torch.where), for elements of type T (instantiated with T = float).
/* @optiml
   sizes:    n=33554432                 # 2^25: 32 MiB of bool mask, 2 x 128 MiB in, 128 MiB out
   check:    n=1; n=255; n=1000003
   template: T=float
   cond:     in  bool[n]
   a:        in  T[n]
   b:        in  T[n]
   out:      out T[n]
   launch:   grid=min(cdiv(n,256),4096) block=256
*/
template <typename T>
__global__ void where_select(const bool* cond, const T* a, const T* b, T* out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        if (cond[i])
            out[i] = a[i];
        else
            out[i] = b[i];
    }
}

template __global__ void where_select<float>(const bool*, const float*, const float*, float*, int);
