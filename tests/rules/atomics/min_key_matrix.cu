// low[0] = min over a rows x cols matrix of unsigned keys: the bound is a product, the guard has no braces,
// and blocks of 100 threads are not whole warps.

/* @optiml
   sizes:  rows=4096 cols=1024
   check:  rows=37 cols=1000; rows=1 cols=3
   keys:   in    unsigned int[rows*cols] range(5,2000000000)
   low:    inout unsigned int[1] const(4000000000)
   launch: grid=cdiv(rows*cols,100) block=100
*/
__global__ void min_key_matrix(const unsigned int* keys, unsigned int* low, int rows, int cols)
{
    long long e = threadIdx.x + (long long)blockIdx.x * blockDim.x;
    if (e < rows * cols) atomicMin(low + 0, keys[e]);
}
