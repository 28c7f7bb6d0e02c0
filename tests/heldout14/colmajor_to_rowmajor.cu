// B[i][j] = A(i, j) for an M x N matrix A stored column-major (A[j*M + i]) copied into a row-major M x N matrix B (B[i*N + j]): a layout transpose (torch: A.view(N, M).t().contiguous()).
#define IDX2C(i,j,ld) (((j)*(ld))+(i))
#define IDX2R(i,j,ld) (((i)*(ld))+(j))

/* @optiml
   sizes:  M=8192 N=4096                # 2^25 floats: 128 MiB in, 128 MiB out
   check:  M=1 N=1; M=3 N=5; M=33 N=17; M=1 N=1000; M=1000 N=1; M=64 N=64
   A:      in  float[M*N]
   B:      out float[M*N]
   launch: grid=(cdiv(M,32),cdiv(N,8)) block=(32,8)
*/
__global__ void colmajor_to_rowmajor(const float* __restrict__ A, float* __restrict__ B, int M, int N)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;   // row of A, fastest in column-major storage
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < M && j < N)
        B[IDX2R(i, j, N)] = A[IDX2C(i, j, M)];
}
