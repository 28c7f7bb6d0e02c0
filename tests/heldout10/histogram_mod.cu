// bins[((v % 100) + 100) % 100] += 1 for every value v in vals: a 100-bin histogram of signed ints folded by a non-negative modulo (bins must start at 0).
#define NBINS 100

/* @optiml
   sizes:  n=67108864                   # 2^26 ints: 256 MiB in, 400 B of bins
   check:  n=1; n=255; n=1000003
   vals:   in    int[n] range(-100000,100000)
   bins:   inout int[100] const(0)      # counters: zeroed before each run
   launch: grid=cdiv(n,512) block=512
*/
extern "C" __global__ void histogram_mod(const int* vals, int* bins, int n)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) {
        int v = vals[i] % NBINS;
        int b = v < 0 ? v + NBINS : v;
        atomicAdd(bins + b, 1);
    }
}
