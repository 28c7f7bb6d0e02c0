// m = b1*m + (1-b1)*g; v = b2*v + (1-b2)*g^2; p = p*(1 - lr*wd) - lr * (m / (1 - b1^step)) / (sqrt(v / (1 - b2^step)) + eps): one AdamW step (torch.optim.AdamW, decoupled weight decay, bias-corrected, not amsgrad) over n parameters, updating param, exp_avg and exp_avg_sq in place.
/* @optiml
   sizes:        n=16777216             # 2^24 floats: 3 x 64 MiB read and written (inout), grad 64 MiB in
   check:        n=1; n=255; n=1000003
   param:        inout float[n] normal(0,0.02)   # init-scale weights: one step moves them by about 2%
   grad:         in    float[n] normal(0,0.1)
   exp_avg:      inout float[n] normal(0,0.1)
   exp_avg_sq:   inout float[n] uniform(0,0.01)
   lr:           0.001
   beta1:        0.9
   beta2:        0.999
   eps:          1e-8
   weight_decay: 0.01
   step:         10
   launch:       grid=min(cdiv(n,256),2048) block=256
   flops:        16*n
*/
__global__ void adamw_step(float* param, const float* grad, float* exp_avg, float* exp_avg_sq,
                           float lr, float beta1, float beta2, float eps, float weight_decay, int step, size_t n)
{
    const float bias_correction1 = 1.0f - powf(beta1, (float)step);
    const float bias_correction2 = 1.0f - powf(beta2, (float)step);
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)blockDim.x * gridDim.x) {
        float g = grad[i];
        float p = param[i];
        float m = exp_avg[i];
        float v = exp_avg_sq[i];

        p = p * (1.0f - lr * weight_decay);           // decoupled weight decay
        m = beta1 * m + (1.0f - beta1) * g;
        v = beta2 * v + (1.0f - beta2) * g * g;

        float m_hat = m / bias_correction1;
        float v_hat = v / bias_correction2;
        p = p - lr * m_hat / (sqrtf(v_hat) + eps);

        param[i] = p;
        exp_avg[i] = m;
        exp_avg_sq[i] = v;
    }
}
