// out[b][n] = log sum_m exp(x[b][m][n]): `torch.logsumexp(x, dim=1)` (a KernelBench-style reduction over a dim that is not the last) on [16, 4000, 512] fp32; blocks of 32 x 8 threads over a strip of 32 columns (threadIdx.x the column, threadIdx.y a stride-8 share of the m axis, blockIdx.y the batch), a one-pass running (max, sum) per thread rescaled with expf when the max moves, the eight states of a column merged by the threadIdx.y == 0 row through two __shared__ [8][32] arrays; no early return before the barrier.
#define COLS 32
#define ROWS 8

/* @optiml
   sizes:   B=16 M=4000 N=512           # x 125 MiB in, out 32 KiB out
   check:   B=1 M=1 N=1; B=2 M=7 N=3; B=1 M=300 N=33; B=3 M=9 N=64; B=1 M=1000 N=1; B=2 M=5 N=100; B=1 M=17 N=257
   x:       in  float[B*M*N] normal(0,3)
   out:     out float[B*N]
   launch:  grid=(cdiv(N,32),B) block=(32,8)
   flops:   4*B*M*N
   tol:     1e-5
*/
__global__ void logsumexp_dim1(const float* x, float* out, int B, int M, int N)
{
    __shared__ float s_max[ROWS][COLS];
    __shared__ float s_sum[ROWS][COLS];

    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int b = blockIdx.y;
    int n = blockIdx.x * COLS + tx;

    float m = -INFINITY;
    float s = 0.0f;
    if (n < N) {
        const float* col = x + (size_t)b * M * N + n;
        for (int i = ty; i < M; i += ROWS) {
            float v = col[(size_t)i * N];
            if (v > m) {
                s = s * expf(m - v) + 1.0f;
                m = v;
            } else {
                s += expf(v - m);
            }
        }
    }
    s_max[ty][tx] = m;
    s_sum[ty][tx] = s;
    __syncthreads();

    if (ty == 0 && n < N) {
        float mx = s_max[0][tx];
        for (int r = 1; r < ROWS; r++)
            mx = fmaxf(mx, s_max[r][tx]);
        float total = 0.0f;
        for (int r = 0; r < ROWS; r++) {
            if (s_max[r][tx] != -INFINITY)
                total += s_sum[r][tx] * expf(s_max[r][tx] - mx);
        }
        out[(size_t)b * N + n] = mx + logf(total);
    }
}
