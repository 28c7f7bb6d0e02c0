// dinp[r][c] = rstd[r] * (g[c] - mean_c(g) - xhat[c] * mean_c(g * xhat)) with g = weight * dout[r] and xhat = (inp[r] - mean[r]) * rstd[r]: the input gradient of a row layer norm from the saved mean and rstd (aten native_layer_norm_backward's grad_input), two passes, one thread per row.
/* @optiml
   sizes:  N=16384 C=2048               # 2^25 floats each: dout, inp 2 x 128 MiB in (read twice), dinp 128 MiB out
   check:  N=1 C=1; N=3 C=7; N=37 C=1000; N=300 C=2; N=2 C=3001
   dinp:   out float[N*C]
   dout:   in  float[N*C]
   inp:    in  float[N*C]
   weight: in  float[C] uniform(0.5,1.5)
   mean:   in  float[N] uniform(-0.1,0.1)
   rstd:   in  float[N] uniform(0.5,2)
   launch: grid=cdiv(N,128) block=128
   flops:  14*N*C
   tol:    1e-4
*/
__global__ void layernorm_backward_dx(float* dinp, const float* dout, const float* inp, const float* weight,
                                      const float* mean, const float* rstd, int N, int C)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= N) return;
    const float* dout_r = dout + (size_t)row * C;
    const float* inp_r = inp + (size_t)row * C;
    float* dinp_r = dinp + (size_t)row * C;
    float mean_r = mean[row];
    float rstd_r = rstd[row];

    // first pass: the two row means the gradient needs
    float dnorm_mean = 0.0f;
    float dnorm_norm_mean = 0.0f;
    for (int c = 0; c < C; c++) {
        float norm_rc = (inp_r[c] - mean_r) * rstd_r;
        float dnorm_c = weight[c] * dout_r[c];
        dnorm_mean += dnorm_c;
        dnorm_norm_mean += dnorm_c * norm_rc;
    }
    dnorm_mean = dnorm_mean / C;
    dnorm_norm_mean = dnorm_norm_mean / C;

    // second pass: the gradient itself
    for (int c = 0; c < C; c++) {
        float norm_rc = (inp_r[c] - mean_r) * rstd_r;
        float dnorm_c = weight[c] * dout_r[c];
        float dval = dnorm_c - dnorm_mean - norm_rc * dnorm_norm_mean;
        dinp_r[c] = dval * rstd_r;
    }
}
