// out[b,n,m] = x[b,m,n]: swap the last two axes of a B x M x N row-major array (out is B x N x M).
/* @optiml
   sizes:  B=32 M=1024 N=2048           # 256 MiB in, 256 MiB out
   check:  B=3 M=37 N=33; B=1 M=1 N=3; B=2 M=100 N=1; B=5 M=1 N=1
   x:      in  float[B*M*N]
   out:    out float[B*N*M]
   launch: grid=(cdiv(M,16),cdiv(N,16),B) block=(16,16,1)
*/
__global__ void swap_last_two(const float* __restrict__ x, float* __restrict__ out, int B, int M, int N)
{
    int m = blockIdx.x * blockDim.x + threadIdx.x;
    int n = blockIdx.y * blockDim.y + threadIdx.y;
    int b = blockIdx.z;
    if (m < M && n < N) {
        size_t src = ((size_t)b * M + m) * N + n;
        size_t dst = ((size_t)b * N + n) * M + m;
        out[dst] = x[src];
    }
}
