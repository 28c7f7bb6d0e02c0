// y[j] = tanh(b[j] + sum_k v[k] * W[k][j]): `torch.tanh(v @ W + b)` (a single-vector Linear whose weight is stored [in][out], i.e. the matrix-vector product with the transposed matrix, then bias and tanh, as an RNN cell's or an attention pooler's projection of one vector) with W [8192, 8192] fp32; written the way a chat assistant answers "simple CUDA kernel for tanh(W^T x + b)": one thread per output on a 1-D launch of 256, `unsigned int` sizes, index and loop counter, `float sum = 0.0f; for (...) sum += ...`, the braced body under `if (j < N)`, `tanhf`.

/* @optiml
   sizes:   K=8192 N=8192   # W 256 MiB in, v 32 KiB in, b 32 KiB in, y 32 KiB out; 0.13 GFLOP
   check:   K=1 N=1; K=7 N=5; K=300 N=257; K=33 N=1000; K=1000 N=3; K=64 N=513
   W:       in  float[K*N] uniform(-0.011,0.011)
   v:       in  float[K]
   b:       in  float[N] uniform(-0.011,0.011)
   y:       out float[N]
   launch:  grid=cdiv(N,256) block=256
   flops:   2*K*N + 3*N
   tol:     1e-4
*/
__global__ void matvec_t_bias_tanh(const float* W, const float* v, const float* b, float* y, unsigned int K,
                                   unsigned int N)
{
    unsigned int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < N) {
        float sum = 0.0f;
        for (unsigned int k = 0; k < K; k++) {
            sum += v[k] * W[k * N + j];
        }
        y[j] = tanhf(sum + b[j]);
    }
}
