// dst[row] = sum over col of float(W[row][col]) * y[col]: the decode-time product of an fp16 weight matrix by an fp32 activation vector (ggml's mul_mat of an F16 src0 by an F32 src1 with one column, llama.cpp's dequantize_mul_mat_vec for F16); one thread per output row walking its ncols weights.
#include <cuda_fp16.h>
#include <cstdint>

/* @optiml
   sizes:  nrows=32000 ncols=4096       # W 250 MiB in, y 16 KiB, dst 125 KiB
   check:  nrows=1 ncols=1; nrows=7 ncols=3; nrows=1000 ncols=17; nrows=33 ncols=4099; nrows=2 ncols=256; nrows=300 ncols=1
   W:      in  __half[nrows*ncols]
   y:      in  float[ncols]
   dst:    out float[nrows]
   launch: grid=cdiv(nrows,256) block=256
   flops:  2*nrows*ncols
   tol:    1e-4
*/
__global__ void mul_mat_vec_f16_f32(const __half* __restrict__ W, const float* __restrict__ y,
                                    float* __restrict__ dst, int nrows, int ncols)
{
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= nrows) {
        return;
    }
    const __half* w = W + (int64_t)row * ncols;
    float tmp = 0.0f;
    for (int col = 0; col < ncols; ++col) {
        tmp += __half2float(w[col]) * y[col];
    }
    dst[row] = tmp;
}
