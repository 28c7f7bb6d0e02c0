// y[t,d] = x[t,d] / sqrt(mean_d(x[t,:]^2) + 1e-6) * weight[d]; x, y are n_tokens x dim row-major.
#define RMS_EPS 1e-6f

/* @optiml
   sizes:  n_tokens=4096 dim=4096
   y:      out float[n_tokens*dim]
   x:      in float[n_tokens*dim]
   weight: in float[dim]
   launch: grid=cdiv(n_tokens,256) block=256
*/
__global__ void rmsnorm_fwd(float* y, const float* x, const float* weight, int n_tokens, int dim)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n_tokens) return;

    float sumsq = 0.0f;
    for (int d = 0; d < dim; d++) {
        float v = x[row * dim + d];
        sumsq += v * v;
    }
    float scale = 1.0f / sqrtf(sumsq / dim + RMS_EPS);

    for (int d = 0; d < dim; d++) {
        y[row * dim + d] = x[row * dim + d] * scale * weight[d];
    }
}
