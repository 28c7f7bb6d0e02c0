// z_norm[i, d] = (z[i, d] - mean_i z[:, d]) / std_i z[:, d] (unbiased std over the batch, one feature column at a time): Barlow Twins' standardisation of the projector output along the batch before the cross-correlation matrix (`z_a_norm = (z_a - z_a.mean(0)) / z_a.std(0)`), batch 2048 with the paper's 8192-wide projector, fp32 row-major [N, D]; one block a feature column (`template <int BLOCK_SIZE>`), threads striding down the column with the row pitch D, the sum and the sum of squares reduced together in a stacked `__shared__ float red[2][BLOCK_SIZE]` tree, the variance as (sum of squares - N mean^2) / (N - 1), then every thread writing its own elements of the column; `size_t` offsets, `__restrict__`; z `normal(0.3,1)`.

/* @optiml
   sizes:    N=2048 D=8192   # z 64 MiB in, z_norm 64 MiB out; 0.08 GFLOP
   check:    N=2 D=1; N=3 D=5; N=100 D=7; N=257 D=3; N=1000 D=2; N=33 D=17; N=256 D=4; N=4099 D=2
   template: BLOCK_SIZE=256
   z:        in  float[N*D] normal(0.3,1)
   z_norm:   out float[N*D]
   launch:   grid=D block=BLOCK_SIZE
   flops:    5*N*D
   tol:      1e-4
*/
template <int BLOCK_SIZE>
__global__ void batch_standardize_columns(const float* __restrict__ z, float* __restrict__ z_norm, int N, int D)
{
    __shared__ float red[2][BLOCK_SIZE];    // [0]: sum, [1]: sum of squares

    const int d = blockIdx.x;
    const int tid = threadIdx.x;

    float s = 0.0f, ss = 0.0f;
    for (int i = tid; i < N; i += BLOCK_SIZE) {
        float v = z[(size_t)i * D + d];
        s += v;
        ss += v * v;
    }
    red[0][tid] = s;
    red[1][tid] = ss;
    __syncthreads();
    for (int stride = BLOCK_SIZE / 2; stride > 0; stride >>= 1) {
        if (tid < stride) {
            red[0][tid] += red[0][tid + stride];
            red[1][tid] += red[1][tid + stride];
        }
        __syncthreads();
    }

    const float mean = red[0][0] / N;
    const float var = (red[1][0] - N * mean * mean) / (N - 1);
    const float inv_std = 1.0f / sqrtf(var);

    for (int i = tid; i < N; i += BLOCK_SIZE) {
        size_t k = (size_t)i * D + d;
        z_norm[k] = (z[k] - mean) * inv_std;
    }
}
