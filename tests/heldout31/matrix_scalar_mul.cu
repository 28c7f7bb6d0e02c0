// C[m][n] = A[m][n] * s: `A * s` (KernelBench level 1's matrix-scalar multiplication, s = 3.14) on a 16384 x 4096 fp32 matrix; a `size_t` grid-stride loop capped at 2048 blocks of 256 (128 elements a thread at the benchmark size), s a float argument with its own contract line, the total computed in the kernel from the two extents.

/* @optiml
   sizes:   M=16384 N=4096   # A 256 MiB in, C 256 MiB out; 67 MFLOP
   check:   M=1 N=1; M=3 N=5; M=1 N=1000; M=257 N=3; M=2 N=2049; M=600 N=1000
   A:       in  float[M*N]
   C:       out float[M*N]
   s:       3.14
   launch:  grid=min(cdiv(M*N,256),2048) block=256
   flops:   M*N
*/
__global__ void matrix_scalar_mul(const float* A, float* C, float s, int M, int N)
{
    size_t total = (size_t)M * N;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += (size_t)gridDim.x * blockDim.x)
        C[i] = A[i] * s;
}
