// out[t,h] = (x[t,h] - mu_t) / sqrt(var_t + eps) * gamma[h] + beta[h], mu_t and var_t (biased) over row t; x, out are tokens x hidden row-major.
/* @optiml
   sizes:  tokens=32768 hidden=2048     # 256 MiB in, 256 MiB out
   check:  tokens=37 hidden=1000; tokens=1 hidden=3; tokens=513 hidden=17; tokens=2 hidden=1
   x:      in  float[tokens*hidden]
   gamma:  in  float[hidden]
   beta:   in  float[hidden]
   out:    out float[tokens*hidden]
   eps:    1e-5
   launch: grid=cdiv(tokens,128) block=128
   flops:  8*tokens*hidden
   tol:    1e-4
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
