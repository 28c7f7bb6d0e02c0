// p = p * (1 - lr * wd) - lr * sign(beta1 * m + (1 - beta1) * g), then m = beta2 * m + (1 - beta2) * g: one step of the Lion optimizer (lion-pytorch's `update_fn`, the decoupled weight decay first, torch.sign giving 0 at 0) on a flat buffer of 6 million fp32 parameters, lr 1e-4, betas (0.9, 0.99), weight decay 0.1; one thread per parameter, param and exp_avg updated in place, the sign written as two comparisons.

/* @optiml
   sizes:   n=6291461                   # param, exp_avg 24 MiB each read and written, grad 24 MiB in
   check:   n=1; n=2; n=255; n=256; n=257; n=1000; n=70001
   param:   inout float[n]
   exp_avg: inout float[n] uniform(-0.01,0.01)
   grad:    in    float[n] uniform(-0.01,0.01)
   lr:      1e-4
   beta1:   0.9
   beta2:   0.99
   weight_decay: 0.1
   launch:  grid=cdiv(n,256) block=256
   flops:   10*n
   tol:     1e-5
*/
__global__ void lion_step(float* param, float* exp_avg, const float* grad, float lr, float beta1, float beta2,
                          float weight_decay, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;

    float p = param[i];
    float m = exp_avg[i];
    float g = grad[i];

    p = p * (1.0f - lr * weight_decay);
    float c = beta1 * m + (1.0f - beta1) * g;
    float update = (c > 0.0f) - (c < 0.0f);
    param[i] = p - lr * update;
    exp_avg[i] = beta2 * m + (1.0f - beta2) * g;
}
