// param[i] = bf16(param[i] - lr * grad[i]) in place: the plain SGD step on bfloat16 weights and gradients, param.add_(grad, alpha=-lr) (torch.optim.SGD's single-tensor path with no momentum and no weight decay, pure-bf16 training); one thread per element, early return.
#include <cuda_bf16.h>

/* @optiml
   sizes:  n=67108864                   # 2^26 bf16: param 128 MiB read and written, grad 128 MiB in
   check:  n=1; n=7; n=1000; n=4099; n=65537; n=300007; n=2
   param:  inout __nv_bfloat16[n]
   grad:   in    __nv_bfloat16[n]
   lr:     0.05
   launch: grid=cdiv(n,256) block=256
   flops:  2*n
   tol:    1e-2                         # bf16 output
*/
__global__ void sgd_step_bf16(__nv_bfloat16* __restrict__ param, const __nv_bfloat16* __restrict__ grad, float lr, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float p = __bfloat162float(param[i]);
    float g = __bfloat162float(grad[i]);
    param[i] = __float2bfloat16(p + (-lr) * g);
}
