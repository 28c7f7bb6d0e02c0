/* @optiml
   sizes:  n=16777216
   x:      in float[n]
   acc:    inout double[1] const(0)
   tol:    1e-2
   launch: grid=cdiv(n,256) block=256
*/
__global__ void sumsq_double_atomic(const float* __restrict__ x, double* acc, int n)
{
    const int gid = blockDim.x * blockIdx.x + threadIdx.x;
    if (gid < n) {
        double v = (double)x[gid];
        atomicAdd(acc, v * v);
    }
}
