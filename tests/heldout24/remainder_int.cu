// r[i] = a[i] - floor(a[i] / b[i]) * b[i], the remainder taking the divisor's sign (Python's %): torch.remainder(a, b) of two int32 tensors of 10 million elements, divisors positive (bucketing signed ids and offsets); an int grid-stride for loop over at most 1024 blocks of 256, C's truncating % corrected by adding b where the signs differ.

/* @optiml
   sizes:   n=10485760                  # a, b 40 MiB each in, r 40 MiB out (int32)
   check:   n=1; n=7; n=255; n=256; n=1000; n=70001; n=262145
   a:       in  int[n] range(-100000,100000)
   b:       in  int[n] range(1,1000)
   r:       out int[n]
   launch:  grid=min(cdiv(n,256),1024) block=256
   tol:     1e-5
*/
__global__ void remainder_int(const int* a, const int* b, int* r, int n)
{
    int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        int m = a[i] % b[i];
        if (m != 0 && ((m < 0) != (b[i] < 0)))
            m += b[i];
        r[i] = m;
    }
}
