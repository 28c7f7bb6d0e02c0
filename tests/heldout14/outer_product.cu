// C[row][col] = a[row] * b[col]: outer product of an M-vector and an N-vector into a row-major M x N matrix (torch.outer(a, b)).
/* @optiml
   sizes:  M=8192 N=8192                # 256 MiB out, 2 x 32 KiB in
   check:  M=1 N=1; M=3 N=5; M=33 N=17; M=1 N=1000; M=700 N=1
   a:      in  float[M]
   b:      in  float[N]
   C:      out float[M*N]
   launch: grid=(cdiv(N,16),cdiv(M,16)) block=(16,16)
   flops:  M*N
*/
__global__ void outer_product(const float* a, const float* b, float* C, int M, int N)
{
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        C[row * N + col] = a[row] * b[col];
    }
}
