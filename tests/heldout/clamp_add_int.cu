// y[i] = min(max(a[i] + b[i], lo), hi) over n 32-bit ints (saturating add into [lo, hi]).
/* @optiml
   sizes:  n=33554432                   # 2^25 ints: 3 x 128 MiB
   check:  n=1000003; n=1; n=255
   a:      in  int[n] range(-1000,1000)
   b:      in  int[n] range(-1000,1000)
   y:      out int[n]
   lo:     -500
   hi:     700
   launch: grid=cdiv(n,128) block=128
*/
__global__ void clamp_add_int(int n, int lo, int hi, const int* a, const int* b, int* y)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) {
        int s = a[i] + b[i];
        y[i] = min(max(s, lo), hi);
    }
}
