// y[b][m][n] = exp(s[b][m][n] - max_n' s[b][m][n']) / sum_n' exp(s[b][m][n'] - max), s[b][m][n] = sum_k A[b][m][k] * B[b][k][n]: `torch.softmax(torch.bmm(A, B), dim=-1)` (KernelBench level 2's product + Softmax family, here a batched product whose rows go straight into the softmax, as an unscaled attention turns 32 batch-heads of 1024 queries against 1024 keys kept transposed, head dim 64, into probabilities), A [32, 1024, 64] by B [32, 64, 1024] fp32; one block of 128 threads per (b, m) row, each thread computing a strided slice of the row's scores into y and its running max, a `__shared__` tree for the max and another for the sum of expf, then a scale by the reciprocal; the block size an anonymous `enum`, `long` offsets, -inf seed from <math.h>.
#include <math.h>

enum { NT = 128 };

/* @optiml
   sizes:   batch=32 M=1024 K=64 N=1024   # A 8 MiB in, B 8 MiB in, y 128 MiB out; 4.3 GFLOP
   check:   batch=1 M=1 K=1 N=1; batch=2 M=3 K=5 N=7; batch=1 M=4 K=64 N=129; batch=3 M=2 K=3 N=300; batch=1 M=5 K=17 N=1000; batch=2 M=7 K=1 N=128
   A:       in  float[batch*M*K]
   B:       in  float[batch*K*N]
   y:       out float[batch*M*N]
   launch:  grid=batch*M block=128
   flops:   2*batch*M*K*N + 5*batch*M*N
   tol:     1e-4
*/
__global__ void bmm_softmax_rows(const float* A, const float* B, float* y, int batch, int M, int K, int N)
{
    __shared__ float red[NT];

    const long row = blockIdx.x;                 // b * M + m
    const long b = row / M;
    const float* a = A + row * K;
    const float* bk = B + b * K * N;
    float* out = y + row * N;
    const int t = threadIdx.x;

    float mx = -INFINITY;
    for (int n = t; n < N; n += NT) {
        float s = 0.0f;
        for (int k = 0; k < K; ++k)
            s += a[k] * bk[(long)k * N + n];
        out[n] = s;
        mx = fmaxf(mx, s);
    }
    red[t] = mx;
    __syncthreads();
    for (int h = NT / 2; h > 0; h >>= 1) {
        if (t < h)
            red[t] = fmaxf(red[t], red[t + h]);
        __syncthreads();
    }
    mx = red[0];
    __syncthreads();

    float sum = 0.0f;
    for (int n = t; n < N; n += NT) {
        float e = expf(out[n] - mx);
        out[n] = e;
        sum += e;
    }
    red[t] = sum;
    __syncthreads();
    for (int h = NT / 2; h > 0; h >>= 1) {
        if (t < h)
            red[t] += red[t + h];
        __syncthreads();
    }
    const float inv = 1.0f / red[0];

    for (int n = t; n < N; n += NT)
        out[n] *= inv;
}
