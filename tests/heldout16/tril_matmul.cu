// C[i][j] = sum over j <= k <= i of A[i][k] * B[k][j] for j <= i, and C[i][j] = 0 above the diagonal: the product of two lower-triangular N x N matrices, torch.tril(torch.matmul(A, B)); only the lower triangles of A and B are read.
/* @optiml
   sizes:  N=4096                       # 2^24 floats per matrix: two lower triangles (64 MiB) read, 64 MiB written
   check:  N=1; N=2; N=7; N=33; N=100; N=257
   A:      in  float[N*N]
   B:      in  float[N*N]
   C:      out float[N*N]
   launch: grid=(cdiv(N,16),cdiv(N,16)) block=(16,16)
   flops:  N*(N+1)*(N+2)/3
   bytes:  4*N*(N+1) + 4*N*N            # the N(N+1)/2 lower entries of A and of B, all of C
   tol:    1e-4
*/
__global__ void tril_matmul(const float* A, const float* B, float* C, int N)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= N || col >= N)
        return;
    if (col > row) {
        C[row * N + col] = 0.0f;   // upper triangle
        return;
    }
    float sum = 0.0f;
    for (int k = col; k <= row; k++)   // A[row][k] is 0 for k > row, B[k][col] is 0 for k < col
        sum += A[row * N + k] * B[k * N + col];
    C[row * N + col] = sum;
}
