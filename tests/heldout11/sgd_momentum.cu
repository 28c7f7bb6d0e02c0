// g = grad + weight_decay * param; buf = momentum * buf + g; param = param - lr * buf: one SGD step with momentum and L2 weight decay (torch.optim.SGD, dampening 0, not Nesterov, buffer already started), in place.
/* @optiml
   sizes:  n=16777216                   # 2^24 floats: param and buf read and written (4 x 64 MiB), grad read (64 MiB)
   check:  n=1; n=255; n=1000003
   param:  inout float[n]
   grad:   in    float[n]
   buf:    inout float[n]
   lr:     0.01
   momentum: 0.9
   weight_decay: 1e-4
   launch: grid=cdiv(n,256) block=256
   flops:  6*n
*/
__global__ void sgd_momentum_step(float* param, const float* grad, float* buf,
                                  float lr, float momentum, float weight_decay, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float p = param[i];
    float g = grad[i] + weight_decay * p;
    float b = momentum * buf[i] + g;
    buf[i] = b;
    param[i] = p - lr * b;
}
