// loss[i] = t_i == 1 ? 1 - cos_i : max(0, cos_i - margin), cos_i = (x1_i . x2_i) / sqrt((|x1_i|^2 + 1e-12) (|x2_i|^2 + 1e-12)), t_i = +1 where label_i is 1 and -1 where it is 0, margin = 0.05: `F.cosine_embedding_loss(x1, x2, 2 * labels - 1, margin=0.05, reduction="none")` (nn.CosineEmbeddingLoss per pair, as a siamese or contrastive embedding model scores pairs) on two [65536, 512] fp32 tables with int32 labels `range(0,2)`; a student's one-thread-per-row kernel: a 1-D launch of 128, three running sums in one loop over `int` offsets `i * D + k`, `#define EPSILON 1e-12` (a `double` literal, so the denominator is computed in double), `sqrt` of that double, `fmaxf` against `0.0f`, margin a float argument with its own contract line.

#define EPSILON 1e-12

/* @optiml
   sizes:   N=65536 D=512   # x1 128 MiB in, x2 128 MiB in, labels 256 KiB in, loss 256 KiB out; 0.2 GFLOP
   check:   N=1 D=1; N=3 D=7; N=130 D=33; N=5 D=512; N=257 D=2; N=40 D=100
   x1:      in  float[N*D]
   x2:      in  float[N*D]
   labels:  in  int[N] range(0,2)
   loss:    out float[N]
   margin:  0.05
   launch:  grid=cdiv(N,128) block=128
   flops:   6*N*D + 8*N
   tol:     1e-5
*/
__global__ void cosine_embedding_loss(const float* x1, const float* x2, const int* labels, float* loss, float margin,
                                      int N, int D)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        float dot = 0.0f, n1 = 0.0f, n2 = 0.0f;
        for (int k = 0; k < D; k++) {
            float a = x1[i * D + k];
            float b = x2[i * D + k];
            dot += a * b;
            n1 += a * a;
            n2 += b * b;
        }
        float cos_sim = dot / sqrt((n1 + EPSILON) * (n2 + EPSILON));
        if (labels[i] == 1)
            loss[i] = 1.0f - cos_sim;
        else
            loss[i] = fmaxf(0.0f, cos_sim - margin);
    }
}
