// w[r][c] = half(float(q[r][c]) * float(scale[r])): dequantizing a symmetric int8 weight with one fp16 scale per output channel (row), the weight-only int8 path of torchao / LLM.int8()-style loaders, w_int8.to(torch.float16) * scales[:, None]; one thread per element, a 2-D grid with (32, 8) blocks.
#include <cuda_fp16.h>
#include <cstdint>

/* @optiml
   sizes:  rows=14336 cols=4096         # Llama-3 8B MLP weight: q 56 MiB in, w 112 MiB out, scales 28 KiB
   check:  rows=1 cols=1; rows=3 cols=7; rows=17 cols=1000; rows=2 cols=4099; rows=300 cols=2; rows=64 cols=33
   q:      in  int8_t[rows*cols] range(-128,128)
   scale:  in  __half[rows] uniform(0.001,0.02)
   w:      out __half[rows*cols]
   launch: grid=(cdiv(cols,32),cdiv(rows,8)) block=(32,8)
   flops:  rows*cols
*/
__global__ void dequant_int8_per_channel(const int8_t* q, const __half* scale, __half* w, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) {
        float s = __half2float(scale[r]);
        long i = (long)r * cols + c;
        w[i] = __float2half((float)q[i] * s);
    }
}
