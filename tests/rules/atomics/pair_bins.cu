// counts[k] += 1 for the low 4 bits of two keys per element: two atomics into one array of 64-bit counters,
// whose bin count only the keys' arithmetic bounds (the contract's array is large).

/* @optiml
   sizes:  n=16777216 nb=65536
   check:  n=1000003; n=1; n=100
   a:      in    int[n] range(0,1000000)
   b:      in    int[n] range(0,1000000)
   counts: inout unsigned long long[nb] const(0)
   launch: grid=cdiv(n,256) block=256
*/
__global__ void pair_bins(const int* a, const int* b, unsigned long long* counts, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(&counts[a[i] % 16], 1ull);
        atomicAdd(&counts[b[i] & 15], 1ull);
    }
}
