/* @optiml
   sizes:  n=16777216 K=15
   x:      in float[n]
   w:      in float[K]
   out:    out float[n-K+1]
   launch: grid=cdiv(n-K+1,256) block=256
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
