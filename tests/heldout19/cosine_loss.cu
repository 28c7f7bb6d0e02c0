// loss[0] += (1/batch_size) * sum over rows b of (1 - cos_b), cos_b = <p_b, t_b> / (max(||p_b||, eps) * max(||t_b||, eps)), eps = 1e-8: the cosine similarity loss torch.mean(1 - F.cosine_similarity(predictions, targets, dim=1)) (KernelBench level 1, 97_CosineSimilarityLoss); loss must start at 0; one thread per row, a __device__ helper for the row, one atomicAdd per row.
#define EPS 1e-8f

__device__ float cosine_of_rows(const float* a, const float* b, int n)
{
    float dot = 0.0f, na = 0.0f, nb = 0.0f;
    for (int k = 0; k < n; ++k) {
        dot += a[k] * b[k];
        na += a[k] * a[k];
        nb += b[k] * b[k];
    }
    return dot / (fmaxf(sqrtf(na), EPS) * fmaxf(sqrtf(nb), EPS));
}

/* @optiml
   sizes:       batch_size=8192 dim=4096   # 128 MiB + 128 MiB in
   check:       batch_size=1 dim=2; batch_size=3 dim=5; batch_size=7 dim=1000; batch_size=300 dim=1; batch_size=2 dim=4097; batch_size=33 dim=64
   predictions: in    float[batch_size*dim]
   targets:     in    float[batch_size*dim]
   loss:        inout float[1] const(0)    # accumulator: zeroed before each run
   launch:      grid=cdiv(batch_size,256) block=256
   flops:       6*batch_size*dim
   tol:         1e-4
*/
__global__ void cosine_similarity_loss(const float* predictions, const float* targets, float* loss,
                                       int batch_size, int dim)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= batch_size) return;

    float cos_sim = cosine_of_rows(predictions + (size_t)row * dim, targets + (size_t)row * dim, dim);
    atomicAdd(loss, (1.0f - cos_sim) / batch_size);
}
