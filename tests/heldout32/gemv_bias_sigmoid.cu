// y[i] = sigmoid(b[i] + sum_k W[i][k] * v[k]), sigmoid(u) = 1 / (1 + exp(-u)): `torch.sigmoid(F.linear(v, W, b))` on one vector (KernelBench level 2's Gemm + Sigmoid family at batch 1, a matrix-vector product: a 16384-way multi-label head on a 4096-feature embedding, W in nn.Linear's [out][in] layout) fp32; one thread per output row on a 1-D launch with a braced bounds if, a `template <typename T>` kernel instantiated for float with a templated `__device__ __forceinline__` sigmoid, a pointer to the weight row, `long` offsets, __restrict__ on every pointer.

template <typename T>
__device__ __forceinline__ T sigmoid_(T u)
{
    return T(1) / (T(1) + expf(-u));
}

/* @optiml
   sizes:   M=16384 K=4096   # W 256 MiB in, v 16 KiB in, b 64 KiB in, y 64 KiB out; 0.13 GFLOP
   check:   M=1 K=1; M=3 K=7; M=129 K=64; M=300 K=5; M=2 K=1000; M=257 K=33
   template: T=float
   W:       in  float[M*K] uniform(-0.015625,0.015625)
   v:       in  float[K]
   b:       in  float[M] uniform(-0.015625,0.015625)
   y:       out float[M]
   launch:  grid=cdiv(M,128) block=128
   flops:   2*M*K + 4*M
   tol:     1e-5
*/
template <typename T>
__global__ void gemv_bias_sigmoid(const T* __restrict__ W, const T* __restrict__ v, const T* __restrict__ b,
                                  T* __restrict__ y, int M, int K)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < M) {
        const T* w_row = W + (long)i * K;
        T acc = b[i];
        for (int k = 0; k < K; ++k)
            acc += w_row[k] * v[k];
        y[i] = sigmoid_(acc);
    }
}

template __global__ void gemv_bias_sigmoid<float>(const float*, const float*, const float*, float*, int, int);
