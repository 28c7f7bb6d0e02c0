// loss[0] += (1/n) * sum over i of (pred[i] - target[i])^2 (mean squared error; loss must start at 0).
/* @optiml
   sizes:  n=524288                     # 2^19 floats: 2 x 2 MiB in (time is the atomics on one address)
   check:  n=100003; n=1; n=255
   pred:   in    float[n]
   target: in    float[n]
   loss:   inout float[1] const(0)      # accumulator: zeroed before each run
   launch: grid=cdiv(n,256) block=256
   flops:  4*n
   tol:    1e-3                         # one fp32 atomic per element, in arbitrary order
   atol:   1e-4
*/
__global__ void mse_loss_atomic(const float* pred, const float* target, float* loss, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float d = pred[i] - target[i];
        atomicAdd(loss, d * d / (float)n);
    }
}
