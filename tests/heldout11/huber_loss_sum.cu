// loss[0] += sum over i of h(pred[i] - target[i]) with h(d) = |d| < delta ? 0.5*d*d : delta*(|d| - 0.5*delta): the Huber loss with reduction "sum" (loss must start at 0); each thread sums a grid-stride slice, then one atomicAdd.
/* @optiml
   sizes:  n=33554432                   # 2^25 floats: 2 x 128 MiB in
   check:  n=1; n=255; n=1000003
   pred:   in    float[n]
   target: in    float[n]
   loss:   inout float[1] const(0)      # accumulator: zeroed before each run
   delta:  0.5
   launch: grid=min(cdiv(n,256),1024) block=256
   flops:  6*n
   tol:    1e-3                         # up to 2^18 fp32 atomics of partial sums, in arbitrary order
*/
__global__ void huber_loss_sum(const float* pred, const float* target, float* loss, float delta, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = gridDim.x * blockDim.x;
    float local = 0.0f;
    while (i < n) {
        float d = pred[i] - target[i];
        float ad = fabsf(d);
        local += ad < delta ? 0.5f * d * d : delta * (ad - 0.5f * delta);
        i += stride;
    }
    atomicAdd(loss, local);
}
