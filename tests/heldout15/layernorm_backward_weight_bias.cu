// dweight[c] = sum over r of dout[r][c] * (inp[r][c] - mean[r]) * rstd[r] and dbias[c] = sum over r of dout[r][c]: the weight and bias gradients of a row layer norm from the saved mean and rstd (reductions down the N rows), one thread per column.
/* @optiml
   sizes:   N=16384 C=2048              # 2^25 floats each: dout and inp 2 x 128 MiB in, 2 x 8 KiB out
   check:   N=1 C=1; N=3 C=5; N=1000 C=33; N=7 C=300; N=129 C=1
   dout:    in  float[N*C]
   inp:     in  float[N*C]
   mean:    in  float[N] uniform(-0.1,0.1)
   rstd:    in  float[N] uniform(0.5,2)
   dweight: out float[C]
   dbias:   out float[C]
   launch:  grid=cdiv(C,128) block=128
   flops:   4*N*C
   tol:     1e-4
*/
__global__ void layernorm_backward_weight_bias(const float* __restrict__ dout, const float* __restrict__ inp,
                                               const float* __restrict__ mean, const float* __restrict__ rstd,
                                               float* __restrict__ dweight, float* __restrict__ dbias,
                                               size_t N, size_t C)
{
    size_t col = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (col >= C)
        return;
    float dw = 0.0f, db = 0.0f;
    for (size_t r = 0; r < N; r++) {
        float d = dout[r * C + col];
        float xhat = (inp[r * C + col] - mean[r]) * rstd[r];
        dw += d * xhat;
        db += d;
    }
    dweight[col] = dw;
    dbias[col] = db;
}
