/* @optiml
   sizes:  tokens=4096 hidden=4096
   x:      in float[tokens*hidden]
   gamma:  in float[hidden]
   beta:   in float[hidden]
   out:    out float[tokens*hidden]
   eps:    0.5
   launch: grid=cdiv(tokens,256) block=256
*/
__global__ void layernorm_affine(const float* x, const float* gamma, const float* beta, float* out,
                                 int tokens, int hidden, float eps)
{
    int t = threadIdx.x + blockIdx.x * blockDim.x;
    if (t < tokens) {
        const float* xr = &x[(size_t)t * hidden];
        float* yr = &out[(size_t)t * hidden];

        float mu = 0.0f;
        for (int h = 0; h < hidden; h++) mu += xr[h];
        mu /= hidden;

        float var = 0.0f;
        for (int h = 0; h < hidden; h++) {
            const float d = xr[h] - mu;
            var += d * d;
        }
        var /= hidden;

        const float rstd = rsqrtf(var + eps);
        for (int h = 0; h < hidden; h++) {
            yr[h] = (xr[h] - mu) * rstd * gamma[h] + beta[h];
        }
    }
}
