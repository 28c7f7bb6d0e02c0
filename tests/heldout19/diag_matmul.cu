// C[i][j] = A[i] * B[i][j]: a diagonal matrix times a matrix (torch.diag(A) @ B with A of length N and B of N x M, KernelBench level 1, 12_Matmul_with_diagonal_matrices_); one thread per output, the flat index split into row and column with / and %.
/* @optiml
   sizes:  N=4096 M=4096                # B 64 MiB in, C 64 MiB out, A 16 KiB
   check:  N=1 M=1; N=3 M=7; N=17 M=1000; N=100 M=1; N=1 M=513; N=64 M=33
   A:      in  float[N]
   B:      in  float[N*M]
   C:      out float[N*M]
   launch: grid=cdiv(N*M,256) block=256
   flops:  N*M
*/
__global__ void diag_matmul_kernel(const float* A, const float* B, float* C, int N, int M)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < N * M) {
        int row = idx / M;
        int col = idx % M;
        C[row * M + col] = A[row] * B[row * M + col];
    }
}
