/* @optiml
   sizes:  n=16777216
   pred:   in float[n]
   target: in float[n]
   loss:   inout float[1] const(0)
   tol:    1e-2
   launch: grid=cdiv(n,256) block=256
*/
__global__ void mse_loss_atomic(const float* pred, const float* target, float* loss, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float d = pred[i] - target[i];
        atomicAdd(loss, d * d / (float)n);
    }
}
