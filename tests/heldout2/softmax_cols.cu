// p[i][j] = exp(s[i][j] - max_i s[:, j]) / sum_i exp(s[i][j] - max_i s[:, j]): softmax down each column of an n x d matrix.
/* @optiml
   sizes:  n=4096 d=8192
   check:  n=5 d=3; n=1 d=1; n=64 d=33
   s:      in  float[n*d]
   p:      out float[n*d]
   launch: grid=cdiv(d,128) block=128
   flops:  4*n*d
   tol:    1e-4
*/
__global__ void softmax_cols(const float* s, float* p, int n, int d)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= d) return;
    float mx = s[j];
    for (int i = 1; i < n; i++) mx = fmaxf(mx, s[i * d + j]);
    float total = 0.f;
    for (int i = 0; i < n; i++) total += expf(s[i * d + j] - mx);
    float inv = 1.f / total;
    for (int i = 0; i < n; i++) p[i * d + j] = expf(s[i * d + j] - mx) * inv;
}
