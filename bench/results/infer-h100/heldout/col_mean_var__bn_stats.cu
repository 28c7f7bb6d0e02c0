/* @optiml
   sizes:  N=4096 C=4096
   x:      in float[N*C]
   mean:   out float[C]
   var:    out float[C]
   launch: grid=cdiv(C,256) block=256
*/
__global__ void bn_stats(const float* x, float* mean, float* var, int N, int C)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c < C) {
        float s = 0.0f;
        for (int n = 0; n < N; ++n)
            s += x[n * C + c];
        const float m = s / N;
        float sq = 0.0f;
        for (int n = 0; n < N; ++n) {
            float d = x[n * C + c] - m;
            sq += d * d;
        }
        mean[c] = m;
        var[c] = sq / N;
    }
}
