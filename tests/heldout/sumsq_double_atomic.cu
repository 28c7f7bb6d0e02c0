// acc[0] += sum over i of double(x[i])^2 (sum of squares of n floats, accumulated in one double; acc must start at 0).
/* @optiml
   sizes:  n=16777216                   # 2^24 floats: 64 MiB in (time is the atomics on one address)
   check:  n=1000003; n=1; n=255
   x:      in    float[n]
   acc:    inout double[1] const(0)
   launch: grid=cdiv(n,256) block=256
   flops:  2*n
   tol:    1e-5                         # double atomics: order noise ~1e-12
*/
__global__ void sumsq_double_atomic(const float* __restrict__ x, double* acc, int n)
{
    const int gid = blockDim.x * blockIdx.x + threadIdx.x;
    if (gid < n) {
        double v = (double)x[gid];
        atomicAdd(acc, v * v);
    }
}
