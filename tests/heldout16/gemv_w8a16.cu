// y[m] = half(scale[m] * sum over k of float(W[m][k]) * float(x[k])): weight-only int8 quantized linear layer (W8A16) for one token, W an M x K int8 matrix with one fp32 scale per output channel, fp16 activations in and out, fp32 accumulation; one thread per output.
#include <cstdint>
#include <cuda_fp16.h>

/* @optiml
   sizes:  M=16384 K=8192               # 128 MiB of int8 weights, 16 KiB of x, 64 KiB of scales, 32 KiB of y
   check:  M=1 K=1; M=3 K=5; M=37 K=1000; M=1 K=4099; M=300 K=64
   W:      in  int8_t[M*K] range(-127,128)   # symmetric quantization: -128 unused
   x:      in  half[K]
   scale:  in  float[M] uniform(0.0005,0.005)
   y:      out half[M]
   launch: grid=cdiv(M,128) block=128
   flops:  2*M*K
   tol:    1e-2                         # fp16 output
*/
extern "C" __global__ void w8a16_gemv(const int8_t* __restrict__ W, const __half* __restrict__ x,
                                      const float* __restrict__ scale, __half* __restrict__ y, int M, int K)
{
    int m = blockIdx.x * blockDim.x + threadIdx.x;
    if (m >= M) return;
    const int8_t* w_row = W + (size_t)m * K;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
        acc += (float)w_row[k] * __half2float(x[k]);
    y[m] = __float2half(acc * scale[m]);   // dequantize once, after the dot product
}
