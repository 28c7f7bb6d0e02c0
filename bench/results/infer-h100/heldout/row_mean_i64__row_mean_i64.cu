// means[b] = (1/len) * sum over j of data[b,j]; data is batch x len row-major, means has batch floats.
#include <cuda/std/cstdint>

/* @optiml
   sizes:  batch=4096 len=4096
   data:   in float[batch*len]
   means:  out float[batch]
   launch: grid=cdiv(batch,256) block=256
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
