// AH[j][i] = conj(A[i][j]): the conjugate (Hermitian) transpose A^H of an M x N complex matrix stored as interleaved (re, im) floats, into an N x M one (A.mH materialized, torch.conj_physical(A.mT)); one thread per complex element.
/* @optiml
   sizes:  M=4096 N=2048                # 2^23 complex = 64 MiB in, 64 MiB out
   check:  M=1 N=1; M=3 N=5; M=33 N=17; M=1 N=1000; M=300 N=1; M=64 N=64
   A:      in  float[2*M*N]
   AH:     out float[2*N*M]
   launch: grid=(cdiv(N,32),cdiv(M,8)) block=(32,8)
*/
__global__ void conj_transpose(const float* A, float* AH, int M, int N)
{
    const size_t j = blockIdx.x * blockDim.x + threadIdx.x;   // column of A, row of AH
    const size_t i = blockIdx.y * blockDim.y + threadIdx.y;   // row of A, column of AH
    if (i < M && j < N) {
        const size_t src = 2 * (i * N + j);
        const size_t dst = 2 * (j * M + i);
        AH[dst] = A[src];              // real part
        AH[dst + 1] = -A[src + 1];     // imaginary part, negated
    }
}
