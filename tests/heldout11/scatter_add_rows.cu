// table[idx[i]][d] += src[i][d] for every row i of src: scatter-add (index_add_ along dim 0) of n rows of width D into a V x D table, with atomicAdd since indices repeat.
/* @optiml
   sizes:  n=262144 D=128 V=4096        # 128 MiB of src, 1 MiB of idx, 2 MiB table read and written (each row hit ~64 times)
   check:  n=1 D=1 V=4096; n=5 D=3 V=4096; n=1000 D=33 V=4100; n=37 D=2 V=5000
   src:    in    float[n*D]
   idx:    in    int[n] range(0,4096)   # every check size has V >= 4096
   table:  inout float[V*D]
   launch: grid=(cdiv(D,32),cdiv(n,8)) block=(32,8)
   flops:  n*D
*/
__global__ void scatter_add_rows(const float* src, const int* idx, float* table, int n, int D)
{
    int d = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && d < D) {
        int row = idx[i];
        atomicAdd(&table[(size_t)row * D + d], src[(size_t)i * D + d]);
    }
}
