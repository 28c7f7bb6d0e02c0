// total += sum over i of (x[i] - mu)^2, accumulated into one float with atomicAdd.
/* @optiml
   sizes:  n=16777216
   check:  n=1; n=1000; n=65537
   x:      in  float[n]
   total:  inout float[1]
   mu:     0.25
   launch: grid=cdiv(n,256) block=256
   flops:  3*n
   tol:    1e-3
*/
__global__ void sum_squares(const float* x, float* total, float mu, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float d = x[i] - mu;
        atomicAdd(total, d * d);
    }
}
