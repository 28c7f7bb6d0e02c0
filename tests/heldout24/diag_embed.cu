// out[b][i][j] = (i == j) ? x[b][i] : 0: torch.diag_embed(x) of a [32, 1024] batch of vectors into [32, 1024, 1024] diagonal matrices (torch.diag applied to each row); one thread per output element on a 3-D grid (blockIdx.z = b) of 32 x 8 blocks, an early return outside the matrix, size_t offsets, a ternary select.

/* @optiml
   sizes:   B=32 N=1024                 # out 128 MiB out, x 128 KiB in
   check:   B=1 N=1; B=2 N=7; B=3 N=33; B=1 N=100; B=5 N=9; B=2 N=257
   x:       in  float[B*N]
   out:     out float[B*N*N]
   launch:  grid=(cdiv(N,32),cdiv(N,8),B) block=(32,8)
   tol:     1e-5
*/
__global__ void diag_embed(const float* x, float* out, int B, int N)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int b = blockIdx.z;
    if (i >= N || j >= N)
        return;

    size_t o = ((size_t)b * N + i) * N + j;
    out[o] = (i == j) ? x[(size_t)b * N + i] : 0.0f;
}
