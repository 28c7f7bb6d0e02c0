/* @optiml
   sizes:  n_out=4096 n_in=4096
   W:      in float[n_out*n_in]
   x:      in float[n_in]
   b:      in float[n_out]
   y:      out float[n_out]
   launch: grid=cdiv(n_out,256) block=256
*/
__global__ void linear_matvec(int n_out, int n_in, const float* __restrict__ W, const float* __restrict__ x,
                              const float* __restrict__ b, float* __restrict__ y)
{
    int o = blockIdx.x * blockDim.x + threadIdx.x;
    if (o < n_out) {
        const float* w_row = W + (size_t)o * n_in;
        float acc = b[o];
        for (int i = 0; i < n_in; ++i)
            acc += w_row[i] * x[i];
        y[o] = acc;
    }
}
