// result[0] += (1/n) * sum over i of |x[i]|: mean of absolute values (torch.mean(torch.abs(x)); result must start at 0); each thread sums a grid-stride slice, then one atomicAdd.
/* @optiml
   sizes:  n=67108864                   # 2^26 floats: 256 MiB in
   check:  n=1; n=255; n=1000003
   x:      in    float[n]
   result: inout float[1] const(0)      # accumulator: zeroed before each run
   launch: grid=min(cdiv(n,256),1024) block=256
   flops:  2*n
   tol:    1e-3                         # up to 2^18 fp32 atomics of partial means, in arbitrary order
*/
__global__ void mean_abs_atomic(const float* x, float* result, int n)
{
    int tid = threadIdx.x + blockIdx.x * blockDim.x;
    int stride = blockDim.x * gridDim.x;
    float partial = 0.f;
    for (int i = tid; i < n; i += stride)
        partial += fabsf(x[i]);
    atomicAdd(result, partial / n);
}
