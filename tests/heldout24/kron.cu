// C[i][j] = A[i / m2][j / n2] * B[i % m2][j % n2], C of (m1 * m2) x (n1 * n2): torch.kron(A, B) of a 64 x 64 by a 64 x 120 matrix (a 4096 x 7680 result, as in Kronecker-factored layers and preconditioners); one thread per output element on a 2-D grid of 32 x 8 blocks, const int row and column, the four index pieces from / and %, a braced bounds test.

/* @optiml
   sizes:   m1=64 n1=64 m2=64 n2=120    # C 120 MiB out, A 16 KiB and B 30 KiB in
   check:   m1=1 n1=1 m2=1 n2=1; m1=2 n1=3 m2=5 n2=7; m1=3 n1=1 m2=1 n2=40; m1=4 n1=9 m2=17 n2=4; m1=1 n1=33 m2=9 n2=2; m1=7 n1=5 m2=3 n2=11
   A:       in  float[m1*n1]
   B:       in  float[m2*n2]
   C:       out float[m1*m2*n1*n2]
   launch:  grid=(cdiv(n1*n2,32),cdiv(m1*m2,8)) block=(32,8)
   flops:   m1*m2*n1*n2
   tol:     1e-5
*/
__global__ void kron(const float* A, const float* B, float* C, int m1, int n1, int m2, int n2)
{
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int rows = m1 * m2;
    const int cols = n1 * n2;

    if (row < rows && col < cols) {
        float a = A[(row / m2) * n1 + col / n2];
        float b = B[(row % m2) * n2 + col % n2];
        C[(size_t)row * cols + col] = a * b;
    }
}
