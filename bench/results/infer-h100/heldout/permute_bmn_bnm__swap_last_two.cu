/* @optiml
   sizes:  B=256 M=256 N=256
   x:      in float[B*M*N]
   out:    out float[B*M*N]
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
