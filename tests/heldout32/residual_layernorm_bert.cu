// y[b][s][:] = LayerNorm(h[b][s][:] + r[b][s][:]) = (v - mean(v)) / sqrt(var(v) + eps) * gamma + beta, v = h + r, the biased variance over the D = 768 features, eps = 1e-12: `self.LayerNorm(hidden_states + input_tensor)` of HF BERT's `BertSelfOutput` / `BertOutput` (dropout off), the residual add + LayerNorm of KernelBench level 2's Add + LayerNorm models, on [64, 512, 768] fp32; one thread per token on a 2-D grid (positions on x, blockIdx.y = b) with a braced bounds if, a `__device__` helper for the mean of the sum of two rows, two passes that re-add the residual (mean, variance) and a third that writes, eps a float argument, `size_t` row pointers.

__device__ float mean_of_sum(const float* a, const float* b, int D)
{
    float s = 0.0f;
    for (int i = 0; i < D; i++)
        s += a[i] + b[i];
    return s / D;
}

/* @optiml
   sizes:   B=64 S=512 D=768   # h 96 MiB in, r 96 MiB in, y 96 MiB out; 0.25 GFLOP
   check:   B=1 S=1 D=1; B=2 S=3 D=7; B=1 S=65 D=16; B=3 S=2 D=768; B=1 S=130 D=5; B=2 S=64 D=33
   h:       in  float[B*S*D]
   r:       in  float[B*S*D]
   gamma:   in  float[D] uniform(0.5,1.5)
   beta:    in  float[D]
   y:       out float[B*S*D]
   eps:     1e-12
   launch:  grid=(cdiv(S,64),B) block=64
   flops:   10*B*S*D
   tol:     1e-5
*/
__global__ void residual_layernorm_bert(const float* h, const float* r, const float* gamma, const float* beta, float* y,
                                        float eps, int B, int S, int D)
{
    int s = blockIdx.x * blockDim.x + threadIdx.x;
    int b = blockIdx.y;
    if (s < S) {
        size_t row = (size_t)b * S + s;
        const float* hr = h + row * D;
        const float* rr = r + row * D;
        float* yr = y + row * D;

        float mean = mean_of_sum(hr, rr, D);
        float var = 0.0f;
        for (int i = 0; i < D; i++) {
            float d = hr[i] + rr[i] - mean;
            var += d * d;
        }
        var = var / D;
        float rstd = 1.0f / sqrtf(var + eps);

        for (int i = 0; i < D; i++)
            yr[i] = (hr[i] + rr[i] - mean) * rstd * gamma[i] + beta[i];
    }
}
