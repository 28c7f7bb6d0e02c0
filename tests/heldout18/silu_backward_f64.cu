// grad_input[i] = grad_output[i] * s * (1 + self[i] * (1 - s)), s = 1 / (1 + exp(-self[i])): the SiLU (swish) input gradient (aten::silu_backward, ATen's argument names) in double precision; a do/while grid-stride loop after an early return.
__device__ __forceinline__ double sigmoid_d(double v)
{
    return 1.0 / (1.0 + exp(-v));
}

/* @optiml
   sizes:       n=16777216              # 2^24 doubles: 128 MiB x 2 in, 128 MiB out
   check:       n=1; n=7; n=1000; n=65537
   grad_output: in  double[n]
   self:        in  double[n] normal(0,4)
   grad_input:  out double[n]
   launch:      grid=min(cdiv(n,256),2048) block=256
   flops:       8*n
*/
__global__ void silu_backward_f64(const double* grad_output, const double* self, double* grad_input, long n)
{
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    const long step = (long)blockDim.x * gridDim.x;
    if (i >= n)
        return;
    do {
        const double s = sigmoid_d(self[i]);
        grad_input[i] = grad_output[i] * s * (1.0 + self[i] * (1.0 - s));
        i += step;
    } while (i < n);
}
