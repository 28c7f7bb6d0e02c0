// hist[v] += number of i < n with data[i] == v, for n bytes and 256 bins (hist must start at 0).
/* @optiml
   sizes:  n=134217728                  # 2^27 bytes: 128 MiB in
   check:  n=1000003; n=1; n=255
   data:   in    unsigned char[n] range(0,256)
   hist:   inout unsigned int[256] const(0)
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
