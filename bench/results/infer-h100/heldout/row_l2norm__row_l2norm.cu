/* @optiml
   sizes:  N=4096 dim=4096
   x:      in float[N*dim]
   out:    out float[N]
   launch: grid=cdiv(N,256) block=256
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
