// out[i] = min(max(x[i], min_val), max_val): the HardTanh activation (F.hardtanh(x, min_val=-1.0, max_val=1.0), KernelBench level 1, 32_HardTanh) on a half-precision batch_size x dim tensor; one thread per element, float compare in between.
#include <cuda_fp16.h>

/* @optiml
   sizes:   batch_size=4096 dim=16384   # 2^26 halves: 128 MiB in, 128 MiB out
   check:   batch_size=1 dim=1; batch_size=3 dim=7; batch_size=16 dim=1000; batch_size=129 dim=2; batch_size=1 dim=4099
   x:       in  __half[batch_size*dim] uniform(-3,3)
   out:     out __half[batch_size*dim]
   min_val: -1.0
   max_val: 1.0
   size:    batch_size*dim
   launch:  grid=cdiv(batch_size*dim,512) block=512
   flops:   2*batch_size*dim
   tol:     1e-2                        # fp16 output
*/
__global__ void hardtanh_half_kernel(const __half* x, __half* out, float min_val, float max_val, long size)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < size) {
        float v = __half2float(x[i]);
        if (v < min_val) v = min_val;
        if (v > max_val) v = max_val;
        out[i] = __float2half(v);
    }
}
