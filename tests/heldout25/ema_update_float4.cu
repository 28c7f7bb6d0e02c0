// ema[i] = decay * ema[i] + (1 - decay) * model[i], in place: the exponential moving average of a model's weights (timm's ModelEmaV2 / V3, `ema_v.lerp_(model_v, 1 - decay)`, decay 0.999) over a flat buffer of 11 million parameters; float4 loads and stores through reinterpret_cast for the first n / 4 groups of four, one thread per group, then the n % 4 elements left over done one by one by the first threads (a scalar tail), an odd n at the benchmark size.

/* @optiml
   sizes:   n=11184811                  # ema 42.7 MiB read and written, model 42.7 MiB in
   check:   n=1; n=3; n=4; n=5; n=1023; n=1024; n=1025; n=4099; n=100003
   ema:     inout float[n]
   model:   in    float[n]
   decay:   0.999
   launch:  grid=cdiv(cdiv(n,4),256) block=256
   flops:   3*n
   tol:     1e-5
*/
__global__ void ema_update_float4(float* ema, const float* model, float decay, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int n4 = n / 4;
    float one_minus_decay = 1.0f - decay;

    if (i < n4) {
        float4 e = reinterpret_cast<float4*>(ema)[i];
        float4 m = reinterpret_cast<const float4*>(model)[i];
        e.x = decay * e.x + one_minus_decay * m.x;
        e.y = decay * e.y + one_minus_decay * m.y;
        e.z = decay * e.z + one_minus_decay * m.z;
        e.w = decay * e.w + one_minus_decay * m.w;
        reinterpret_cast<float4*>(ema)[i] = e;
    }

    // scalar tail: the last n % 4 elements
    int t = n4 * 4 + i;
    if (t < n)
        ema[t] = decay * ema[t] + one_minus_decay * model[t];
}
