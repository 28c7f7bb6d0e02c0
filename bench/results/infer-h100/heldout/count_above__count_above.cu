/* @optiml
   sizes:  n=16777216
   x:      in float[n]
   count:  inout int[1] const(0)
   thresh: 0.5
   launch: grid=cdiv(n,256) block=256
*/
__global__ void count_above(const float* x, int* count, float thresh, int n)
{
    int i = threadIdx.x + blockDim.x * blockIdx.x;
    if (i < n && x[i] > thresh)
        atomicAdd(count, 1);
}
