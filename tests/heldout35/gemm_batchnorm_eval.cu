// y[m][n] = (x[m] . W[n] + bias[n] - running_mean[n]) / sqrt(running_var[n] + eps) * gamma[n] + beta[n] with eps = 1e-5: `bn(fc(x))` with `fc = nn.Linear(4096, 4096)` and `bn = nn.BatchNorm1d(4096)` in eval mode (running statistics, the Gemm + BatchNorm pair of KernelBench level 2's Gemm_BatchNorm_* models at inference) at batch 1024 fp32; written as a student's first fused kernel: `#define BLOCK_SIZE 16` for a `dim3 block(16, 16)` launch (the feature on x, the batch row on y), `blockIdx.y * blockDim.y + threadIdx.y` for the row, the combined check `if (row < M && col < N)`, `float sum = 0.0f` and an `int` loop, plain `int` offsets, `sqrtf` and a division, eps a float argument with its own contract line.

#define BLOCK_SIZE 16

/* @optiml
   sizes:   M=1024 K=4096 N=4096   # x 16 MiB in, W 64 MiB in, six [N] vectors 96 KiB in, y 16 MiB out; 34.4 GFLOP
   check:   M=1 K=1 N=1; M=3 K=7 N=5; M=17 K=64 N=33; M=2 K=100 N=129; M=40 K=16 N=16; M=5 K=300 N=47
   x:             in  float[M*K]
   W:             in  float[N*K] uniform(-0.0156,0.0156)
   bias:          in  float[N] uniform(-0.0156,0.0156)
   running_mean:  in  float[N] uniform(-0.2,0.2)
   running_var:   in  float[N] uniform(0.05,0.5)
   gamma:         in  float[N] uniform(0.5,1.5)
   beta:          in  float[N] uniform(-0.5,0.5)
   y:             out float[M*N]
   eps:           1e-5
   launch:        grid=(cdiv(N,16),cdiv(M,16)) block=(16,16)
   flops:         2*M*K*N + 6*M*N
   tol:           1e-4
*/
__global__ void gemm_batchnorm_eval(const float* x, const float* W, const float* bias, const float* running_mean,
                                    const float* running_var, const float* gamma, const float* beta, float* y,
                                    float eps, int M, int K, int N)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;

    if (row < M && col < N) {
        float sum = 0.0f;
        for (int k = 0; k < K; k++) {
            sum += x[row * K + k] * W[col * K + k];
        }
        sum += bias[col];
        float xhat = (sum - running_mean[col]) / sqrtf(running_var[col] + eps);
        y[row * N + col] = gamma[col] * xhat + beta[col];
    }
}
