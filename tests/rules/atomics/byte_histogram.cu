// hist[v] += 1 for every byte v of an image: 256 bins, an early exit, pointer arithmetic for the address.

/* @optiml
   sizes:  npix=33554432
   check:  npix=1000003; npix=1; npix=255
   pixels: in    unsigned char[npix] range(0,256)
   hist:   inout unsigned int[256] range(0,50)
   launch: grid=cdiv(npix,128) block=128
*/
__global__ void byte_histogram(const unsigned char* pixels, unsigned int* hist, int npix)
{
    const int p = threadIdx.x + blockIdx.x * blockDim.x;
    if (p >= npix) {
        return;
    }
    atomicAdd(hist + pixels[p], 1u);
}
