/* @optiml
   sizes:  n=16777216 lo=16 hi=16
   a:      in int[n]
   b:      in int[n]
   y:      out int[n]
   launch: grid=cdiv(n,256) block=256
*/
__global__ void clamp_add_int(int n, int lo, int hi, const int* a, const int* b, int* y)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) {
        int s = a[i] + b[i];
        y[i] = min(max(s, lo), hi);
    }
}
