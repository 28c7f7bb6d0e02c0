// y = W x + b: y[o] = sum over i of W[o,i] * x[i] + b[o]; W is n_out x n_in row-major.
/* @optiml
   sizes:  n_out=16384 n_in=4096        # 256 MiB weight
   check:  n_out=37 n_in=1000; n_out=1 n_in=3; n_out=1000 n_in=1; n_out=257 n_in=129
   W:      in  float[n_out*n_in]
   x:      in  float[n_in]
   b:      in  float[n_out]
   y:      out float[n_out]
   launch: grid=cdiv(n_out,128) block=128
   flops:  2*n_out*n_in
   tol:    1e-4
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
