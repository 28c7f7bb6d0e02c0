// total[0] += sum of x[idx]^2: an early exit instead of a guarded block, the index written thread-first.

/* @optiml
   sizes:  count=4194304
   check:  count=1000003; count=1; count=33
   x:      in    float[count]
   total:  inout float[1] const(0)
   launch: grid=cdiv(count,128) block=128
   flops:  2*count
   tol:    1e-2                         # the original adds 4M floats one by one into ~1.4e6: ~3e-3 rounding
*/
__global__ void sum_squares_exit(const float* __restrict__ x, float* total, int count)
{
    const int idx = threadIdx.x + blockDim.x * blockIdx.x;
    if (idx >= count) return;
    const float v = x[idx];
    atomicAdd(&total[0], v * v);   // every thread onto one address
}
