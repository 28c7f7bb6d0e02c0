// means[b] = (1/len) * sum over j of data[b,j]; data is batch x len row-major, means has batch floats.
#include <cuda/std/cstdint>

/* @optiml
   sizes:  batch=8192 len=8192          # 256 MiB in
   check:  batch=37 len=1000; batch=1 len=3; batch=1000 len=1; batch=5 len=4099
   data:   in  float[batch*len]
   means:  out float[batch]
   launch: grid=cdiv(batch,64) block=64
   flops:  batch*len
   tol:    1e-4
*/
__global__ void row_mean_i64(const float* data, float* means, int64_t batch, int64_t len)
{
    int64_t b = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (b < batch) {
        double acc = 0.0;
        for (int64_t j = 0; j < len; j++)
            acc += data[b * len + j];
        means[b] = (float)(acc / (double)len);
    }
}
