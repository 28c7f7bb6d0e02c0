// loss[0] += (1/batch_size) * sum over b, j of targets[b][j] * (log(targets[b][j]) - log(predictions[b][j])): F.kl_div(torch.log(predictions), targets, reduction="batchmean") over batch_size x dim probabilities (KernelBench level 1, 98_KLDivLoss); loss must start at 0; one block of 256 threads per row, each thread striding the row and adding its share with one atomicAdd.
/* @optiml
   sizes:       batch_size=8192 dim=4096   # 128 MiB + 128 MiB in
   check:       batch_size=1 dim=1; batch_size=2 dim=7; batch_size=5 dim=1000; batch_size=100 dim=3; batch_size=1 dim=4096; batch_size=33 dim=257
   predictions: in    float[batch_size*dim] uniform(0.00005,0.00044)   # softmax-like: a row of 4096 sums to about 1
   targets:     in    float[batch_size*dim] uniform(0.00005,0.00044)
   loss:        inout float[1] const(0)    # accumulator: zeroed before each run
   launch:      grid=batch_size block=256
   flops:       4*batch_size*dim
   tol:         1e-4
*/
__global__ void kl_div_batchmean_kernel(const float* predictions, const float* targets, float* loss,
                                        int batch_size, int dim)
{
    int row = blockIdx.x;
    if (row >= batch_size)
        return;

    const float* p = predictions + (long)row * dim;
    const float* t = targets + (long)row * dim;
    float partial = 0.0f;
    for (int j = threadIdx.x; j < dim; j += blockDim.x)
        partial += t[j] * (logf(t[j]) - logf(p[j]));
    atomicAdd(loss, partial / batch_size);
}
