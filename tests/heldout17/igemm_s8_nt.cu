// C[m][n] = sum over k of int32(A[m][k]) * int32(B[n][k]): an int8 x int8 -> int32 matrix product with both operands K-contiguous (C = A B^T, the layout int8 tensor-core GEMMs take; torch._int_mm(A, B.t())); exact integer arithmetic, one thread per element of C.
#include <cstdint>

/* @optiml
   sizes:  M=4096 N=4096 K=2048         # A 8 MiB, B 8 MiB of int8 in, C 64 MiB of int32 out
   check:  M=1 N=1 K=1; M=3 N=5 K=7; M=33 N=17 K=65; M=1 N=100 K=300; M=64 N=3 K=4099
   A:      in  int8_t[M*K] range(-128,128)
   B:      in  int8_t[N*K] range(-128,128)
   C:      out int32_t[M*N]
   launch: grid=(cdiv(N,16),cdiv(M,16)) block=(16,16)
   flops:  2*M*N*K
*/
__global__ void igemm_s8s8s32_nt(const int8_t* __restrict__ A, const int8_t* __restrict__ B, int32_t* __restrict__ C,
                                 int M, int N, int K)
{
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < M && col < N) {
        const int8_t* a = A + (size_t)row * K;
        const int8_t* b = B + (size_t)col * K;
        int32_t acc = 0;
        for (int k = 0; k < K; k++)
            acc += (int32_t)a[k] * (int32_t)b[k];
        C[(size_t)row * N + col] = acc;
    }
}
