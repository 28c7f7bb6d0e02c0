/* @optiml
   sizes:  n=16777216
   data:   in unsigned char[n]
   hist:   inout unsigned int[128] const(0)  # adjust: its indices depend on the data or on no size: the most touched, rounded up
   launch: grid=cdiv(n,256) block=256
*/
__global__ void byte_histogram(const unsigned char* data, unsigned int* hist, size_t n)
{
    size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        unsigned char v = data[idx];
        atomicAdd(&hist[v], 1);
    }
}
