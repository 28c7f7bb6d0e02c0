// sim[i] = dot(a[i,:], b[i,:]) / max(||a[i,:]|| * ||b[i,:]||, eps) (row-wise cosine similarity); a, b are n x d row-major.
/* @optiml
   sizes:  n=65536 d=768                # 2 x 192 MiB in
   check:  n=37 d=1000; n=1 d=3; n=1000 d=1
   a:      in  float[n*d]
   b:      in  float[n*d]
   sim:    out float[n]
   eps:    1e-8
   launch: grid=cdiv(n,128) block=128
   flops:  6*n*d
   tol:    1e-4
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
