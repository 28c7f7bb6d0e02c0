/* @optiml
   sizes:  n=4096 d=4096
   a:      in float[n*d]
   b:      in float[n*d]
   sim:    out float[n]
   eps:    0.5
   launch: grid=cdiv(n,256) block=256
*/
__global__ void cosine_sim_rows(const float* a, const float* b, float* sim, int n, int d, float eps)
{
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const float* ar = a + (size_t)i * d;
        const float* br = b + (size_t)i * d;
        float ab = 0.0f, aa = 0.0f, bb = 0.0f;
        for (int k = 0; k < d; ++k) {
            float u = ar[k], v = br[k];
            ab += u * v;
            aa += u * u;
            bb += v * v;
        }
        float denom = sqrtf(aa) * sqrtf(bb);
        sim[i] = ab / fmaxf(denom, eps);
    }
}
