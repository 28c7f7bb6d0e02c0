// y[b][p] = max over c of x[b][c][p]; x is B x C x P (P = H*W) row-major, the max over the middle axis.
/* @optiml
   sizes:  B=32 C=256 P=3136
   check:  B=2 C=3 P=5; B=1 C=1 P=1; B=3 C=17 P=40
   x:      in  float[B*C*P]
   y:      out float[B*P]
   launch: grid=cdiv(B*P,256) block=256
*/
__global__ void max_over_channels(const float* x, float* y, int B, int C, int P)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < B * P) {
        int b = t / P, p = t % P;
        float m = -INFINITY;
        for (int c = 0; c < C; ++c)
            m = fmaxf(m, x[(b * C + c) * P + p]);
        y[t] = m;
    }
}
