// hist[idx[i]] += w[i] for every i < n: a weighted histogram, torch.bincount(idx, weights=w, minlength=nbins) added into hist (which must start at 0), float atomics, a grid-stride loop.
/* @optiml
   sizes:  n=16777216 nbins=1000        # 2^24 int32 keys and float weights: 128 MiB in, 4 KB of bins
   check:  n=1 nbins=1000; n=255 nbins=1000; n=1000003 nbins=1000; n=4097 nbins=1024
   idx:    in    int[n] range(0,1000)   # every size has nbins >= 1000
   w:      in    float[n] uniform(0,1)
   hist:   inout float[nbins] const(0)  # accumulator: zeroed before each run
   launch: grid=min(cdiv(n,256),2048) block=256
   flops:  n
   tol:    1e-4                         # ~16800 fp32 atomics per bin, in arbitrary order
*/
extern "C" __global__ void bincount_weighted(const int* idx, const float* w, float* hist, int n, int nbins)
{
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        int bin = idx[i];
        if (bin >= 0 && bin < nbins)
            atomicAdd(&hist[bin], w[i]);
    }
}
