// hist[a[i] * 256 + b[i]] += 1 for every i < n: the 256 x 256 joint histogram of two 8-bit images of n pixels (the co-occurrence counts behind mutual-information image registration; np.histogram2d(a, b, bins=256, range=[[0,256],[0,256]])), unsigned atomics, a grid-stride loop.
/* @optiml
   sizes:  n=67108864                   # 2^26 pixel pairs: 128 MiB in, 256 KiB of counts
   check:  n=1; n=77; n=4096; n=100003
   a:      in    unsigned char[n] range(0,256)
   b:      in    unsigned char[n] range(0,256)
   hist:   inout unsigned int[65536] const(0)   # accumulator: zeroed before each run
   launch: grid=min(cdiv(n,256),1024) block=256
   flops:  n
*/
__global__ void joint_histogram(const unsigned char* a, const unsigned char* b, unsigned int* hist, unsigned int n)
{
    unsigned int stride = blockDim.x * gridDim.x;
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        unsigned int bin = (unsigned int)a[i] * 256u + b[i];
        atomicAdd(&hist[bin], 1u);
    }
}
