// out[b,n] = sum over m of x[b,m,n]; x is B x M x N (row-major, n fastest), out is B x N.
/* @optiml
   sizes:  B=64 M=512 N=2048            # 256 MiB in, 512 KiB out
   check:  B=3 M=37 N=33; B=1 M=1 N=1; B=5 M=100 N=1; B=2 M=1 N=300
   x:      in  float[B*M*N]
   out:    out float[B*N]
   launch: grid=(cdiv(N,128),B) block=(128,1)
   flops:  B*M*N
   tol:    1e-4
*/
__global__ void sum_middle_axis(const float* x, float* out, int B, int M, int N)
{
    int n = blockIdx.x * blockDim.x + threadIdx.x;
    int b = blockIdx.y;
    if (n < N && b < B) {
        const float* slab = x + (size_t)b * M * N;
        float acc = 0.0f;
        for (int m = 0; m < M; m++) {
            acc += slab[(size_t)m * N + n];
        }
        out[b * N + n] = acc;
    }
}
