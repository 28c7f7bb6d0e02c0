// total[0] += sum over i of float(grad[i])^2: the squared L2 norm of a flat bfloat16 gradient buffer, the first half of gradient clipping (Megatron-LM's get_grad_norm_fp32 over its contiguous grad buffer, torch.nn.utils.clip_grad_norm_'s norm before the sqrt); total must start at 0; a grid-stride loop over a small fixed grid (64 blocks of 512), each thread adding its partial sum with one atomicAdd.
#include <cuda_bf16.h>

/* @optiml
   sizes:  n=134217728                  # 2^27 bf16: 256 MiB in
   check:  n=1; n=7; n=1000; n=4099; n=65537; n=300007; n=2
   grad:   in    __nv_bfloat16[n] normal(0,0.01)
   total:  inout float[1] const(0)      # accumulator: zeroed before each run
   launch: grid=min(cdiv(n,512),64) block=512
   flops:  2*n
   tol:    1e-4
*/
__global__ void grad_sumsq_bf16(const __nv_bfloat16* grad, float* total, long n)
{
    float acc = 0.0f;
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    while (i < n) {
        float v = __bfloat162float(grad[i]);
        acc += v * v;
        i += (long)gridDim.x * blockDim.x;
    }
    atomicAdd(total, acc);
}
