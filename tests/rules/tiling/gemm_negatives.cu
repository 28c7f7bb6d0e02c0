// Kernels that gemm_tile must leave alone.

// Double precision: the rule's template is fp32.
/* @optiml
   sizes:  M=64 N=64 K=64
   A:      in  float64[M*K]
   B:      in  float64[K*N]
   C:      out float64[M*N]
   launch: grid=(cdiv(N,16),cdiv(M,16)) block=(16,16)
*/
__global__ void dgemm_nn(const double* A, const double* B, double* C, int M, int N, int K)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < M && col < N) {
        double sum = 0.0;
        for (int k = 0; k < K; k++) {
            sum += A[row * K + k] * B[k * N + col];
        }
        C[row * N + col] = sum;
    }
}

// The accumulator starts from the bias, not from zero.
/* @optiml
   sizes:  M=64 N=64 K=64
   A:      in  float[M*K]
   B:      in  float[K*N]
   bias:   in  float[N]
   C:      out float[M*N]
   launch: grid=(cdiv(N,16),cdiv(M,16)) block=(16,16)
*/
__global__ void sgemm_bias_init(const float* A, const float* B, const float* bias, float* C, int M, int N, int K)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < M && col < N) {
        float sum = bias[col];
        for (int k = 0; k < K; k++) {
            sum += A[row * K + k] * B[k * N + col];
        }
        C[row * N + col] = sum;
    }
}

// The loop adds something else than a product of an A element and a B element.
/* @optiml
   sizes:  M=64 N=64 K=64
   A:      in  float[M*K]
   B:      in  float[K*N]
   C:      out float[M*N]
   launch: grid=(cdiv(N,16),cdiv(M,16)) block=(16,16)
*/
__global__ void sgemm_abs(const float* A, const float* B, float* C, int M, int N, int K)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < M && col < N) {
        float sum = 0.0f;
        for (int k = 0; k < K; k++) {
            sum += fabsf(A[row * K + k] * B[k * N + col]);
        }
        C[row * N + col] = sum;
    }
}

// Both factors come from the same row: a row-wise dot product, no matrix product.
/* @optiml
   sizes:  M=64 N=64 K=64
   A:      in  float[M*K]
   B:      in  float[M*K]
   C:      out float[M*N]
   launch: grid=(cdiv(N,16),cdiv(M,16)) block=(16,16)
*/
__global__ void row_dot_broadcast(const float* A, const float* B, float* C, int M, int N, int K)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < M && col < N) {
        float sum = 0.0f;
        for (int k = 0; k < K; k++) {
            sum += A[row * K + k] * B[row * K + k];
        }
        C[row * N + col] = sum;
    }
}
