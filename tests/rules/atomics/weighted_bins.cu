// h[b] += w[t] where b = floor(u[t] * nbins): float weights, a bin count that is a size symbol.

/* @optiml
   sizes:  n=16777216 nbins=100
   check:  n=1000003 nbins=7; n=1 nbins=1; n=300 nbins=512
   u:      in    float[n] uniform(0,1)
   w:      in    float[n]
   h:      inout float[nbins] const(0)
   launch: grid=cdiv(n,256) block=256
   tol:    1e-4                         # fp32 sums in arbitrary order
*/
__global__ void weighted_bins(const float* u, const float* w, float* h, int n, int nbins)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n) {
        int b = (int)(u[t] * nbins);
        if (b >= nbins) b = nbins - 1;
        atomicAdd(&h[b], w[t]);
    }
}
