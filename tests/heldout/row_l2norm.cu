// out[r] = sqrt(sum over d of x[r,d]^2) (L2 norm of each row); x is N x dim row-major, out has N floats.
/* @optiml
   sizes:  N=131072 dim=512             # 256 MiB in
   check:  N=37 dim=1000; N=1 dim=3; N=1000 dim=1
   x:      in  float[N*dim]
   out:    out float[N]
   launch: grid=cdiv(N,128) block=128
   flops:  2*N*dim
   tol:    1e-4
*/
__global__ void row_l2norm(const float* __restrict__ x, float* __restrict__ out, int N, int dim)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= N) return;
    const float* row = x + (size_t)r * dim;
    float ss = 0.f;
    for (int d = 0; d < dim; ++d) {
        float v = row[d];
        ss += v * v;
    }
    out[r] = sqrtf(ss);
}
