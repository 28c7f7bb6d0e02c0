// out[b][i][j] = a[b][i] * c[b][j]: the batched outer product `torch.einsum("bi,bj->bij", a, c)` (equivalently `torch.bmm(a.unsqueeze(2), c.unsqueeze(1))`, as a bilinear pooling or a per-sample rank-1 term forms it) with a [64, 1024], c [64, 1024] fp32 -> [64, 1024, 1024]; an assistant's 3-D launch: `dim3 block(16, 16)` and `dim3 grid(cdiv(N,16), cdiv(M,16), B)` with the batch on `blockIdx.z`, `blockIdx.y * blockDim.y + threadIdx.y` for the row, the combined check `if (b < B && row < M && col < N)`, plain `int` offsets (64M outputs fit).

/* @optiml
   sizes:   B=64 M=1024 N=1024   # a 256 KiB in, c 256 KiB in, out 256 MiB out
   check:   B=1 M=1 N=1; B=3 M=5 N=7; B=2 M=17 N=33; B=5 M=16 N=1; B=1 M=100 N=300; B=4 M=31 N=16
   a:       in  float[B*M]
   c:       in  float[B*N]
   out:     out float[B*M*N]
   launch:  grid=(cdiv(N,16),cdiv(M,16),B) block=(16,16)
   flops:   B*M*N
   tol:     1e-6
*/
__global__ void batched_outer(const float* a, const float* c, float* out, int B, int M, int N)
{
    int b = blockIdx.z;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;

    if (b < B && row < M && col < N) {
        out[(b * M + row) * N + col] = a[b * M + row] * c[b * N + col];
    }
}
