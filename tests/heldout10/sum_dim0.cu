// out[m][n] = sum over b of x[b][m][n]: a B x M x N tensor summed over its first axis, in a grid-stride loop over the M*N outputs.
/* @optiml
   sizes:  B=64 M=1024 N=1024           # 2^26 floats: 256 MiB in, 4 MiB out
   check:  B=1 M=1 N=1; B=3 M=5 N=7; B=17 M=33 N=2; B=2 M=1 N=1000
   x:      in  float[B*M*N]
   out:    out float[M*N]
   launch: grid=min(cdiv(M*N,256),2048) block=256
   flops:  B*M*N
   tol:    1e-4
*/
__global__ void sum_dim0(const float* __restrict__ x, float* __restrict__ out, int B, int M, int N)
{
    const size_t plane = (size_t)M * N;
    for (size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x; t < plane; t += (size_t)gridDim.x * blockDim.x) {
        float s = 0;
        for (int b = 0; b < B; b++)
            s += x[b * plane + t];
        out[t] = s;
    }
}
