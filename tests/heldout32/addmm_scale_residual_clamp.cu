// y[m][n] = clamp(scale * (b[n] + sum_k x[m][k] * W[k][n]) + res[m][n], lo, hi): `torch.clamp(scale * torch.addmm(b, x, W) + res, lo, hi)` with scale = 2.0 and [lo, hi] = [-1, 1] (the Gemm, scale, residual-add and clamp head of KernelBench level 2's Matmul_Scale_ResidualAdd_Clamp chain, here with the residual a second tensor as a skip connection adds it, and the weight stored [in][out]), x [8192, 1024] by W [1024, 4096] fp32; one thread per output on a 1-D launch, the `int64_t` flat index split into (m, n) by / and %, a braced bounds if, the k loop down a column of W, scale and the clamp bounds float arguments with their own contract lines, fminf / fmaxf.
#include <cstdint>

/* @optiml
   sizes:   M=8192 K=1024 N=4096   # x 32 MiB in, W 16 MiB in, res 128 MiB in, y 128 MiB out; 68.7 GFLOP
   check:   M=1 K=1 N=1; M=3 K=5 N=7; M=17 K=64 N=33; M=2 K=1 N=300; M=9 K=200 N=2; M=40 K=31 N=65
   x:       in  float[M*K]
   W:       in  float[K*N] uniform(-0.03125,0.03125)
   b:       in  float[N] uniform(-0.03125,0.03125)
   res:     in  float[M*N] normal(0,1)
   y:       out float[M*N]
   scale:   2.0
   lo:      -1.0
   hi:      1.0
   launch:  grid=cdiv(M*N,256) block=256
   flops:   2*M*K*N + 4*M*N
   tol:     1e-4
*/
__global__ void addmm_scale_residual_clamp(const float* x, const float* W, const float* b, const float* res, float* y,
                                           float scale, float lo, float hi, int M, int K, int N)
{
    int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < (int64_t)M * N) {
        int64_t m = idx / N;
        int64_t n = idx % N;
        float acc = b[n];
        for (int k = 0; k < K; k++)
            acc += x[m * K + k] * W[(int64_t)k * N + n];
        float v = scale * acc + res[idx];
        y[idx] = fminf(fmaxf(v, lo), hi);
    }
}
