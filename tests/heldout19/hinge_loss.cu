// loss[0] += (1/n) * sum over i of max(1 - predictions[i] * targets[i], 0): the hinge loss torch.mean(torch.clamp(1 - predictions * targets, min=0)) over n = batch_size * dim elements (KernelBench level 1, 100_HingeLoss); loss must start at 0; a grid-stride loop, each thread summing its elements and adding them with one atomicAdd.
/* @optiml
   sizes:       batch_size=4096 dim=4096   # 2^24 floats each: 64 MiB + 64 MiB in
   check:       batch_size=1 dim=1; batch_size=3 dim=7; batch_size=16 dim=1000; batch_size=129 dim=2; batch_size=1 dim=4099
   predictions: in    float[batch_size*dim] normal(0,2)
   targets:     in    float[batch_size*dim]
   loss:        inout float[1] const(0)    # accumulator: zeroed before each run
   n:           batch_size*dim
   launch:      grid=min(cdiv(batch_size*dim,256),1024) block=256
   flops:       4*batch_size*dim
   tol:         1e-4
*/
__global__ void hinge_loss_kernel(const float* predictions, const float* targets, float* loss, int n)
{
    float local = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float margin = 1.0f - predictions[i] * targets[i];
        local += margin > 0.0f ? margin : 0.0f;
    }
    atomicAdd(loss, local / n);
}
