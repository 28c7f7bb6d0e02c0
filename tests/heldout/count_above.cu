// count[0] += number of i < n with x[i] > thresh (int counter; count must start at 0).
/* @optiml
   sizes:  n=16777216                   # 2^24 floats: 64 MiB in
   check:  n=1000003; n=1; n=255
   x:      in    float[n]
   count:  inout int[1] const(0)
   thresh: 0.25
   launch: grid=cdiv(n,256) block=256
*/
__global__ void count_above(const float* x, int* count, float thresh, int n)
{
    int i = threadIdx.x + blockDim.x * blockIdx.x;
    if (i < n && x[i] > thresh)
        atomicAdd(count, 1);
}
