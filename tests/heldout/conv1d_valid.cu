// out[i] = sum over k < K of x[i+k] * w[k], for i < n-K+1 (1-D "valid" cross-correlation with a K-tap filter).
/* @optiml
   sizes:  n=33554432 K=15              # 2^25 floats: 128 MiB in, 128 MiB out
   check:  n=1000 K=7; n=3 K=3; n=5 K=1; n=100003 K=31
   x:      in  float[n]
   w:      in  float[K]
   out:    out float[n-K+1]
   launch: grid=cdiv(n-K+1,256) block=256
   flops:  2*(n-K+1)*K
   tol:    1e-4
*/
__global__ void conv1d_valid(const float* x, const float* w, float* out, int n, int K)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int n_out = n - K + 1;
    if (i < n_out) {
        float acc = 0.0f;
        for (int k = 0; k < K; k++)
            acc += x[i + k] * w[k];
        out[i] = acc;
    }
}
