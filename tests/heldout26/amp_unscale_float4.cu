// grads[i] *= inv_scale[0] in place, found_inf[0] = 1 if any grads[i] is inf or NaN: the unscale step of mixed-precision training (torch.amp.GradScaler.unscale_, `torch._amp_foreach_non_finite_check_and_unscale_([grads], found_inf, inv_scale)`) over a flat buffer of 16 million fp32 gradients with the scale held on the device; a grid-stride loop over float4 groups (reinterpret_cast, at most 1024 blocks of 256), the n % 4 elements left over done one by one by the first threads, isfinite on each value before the multiply, found_inf written only when a value is not finite.

/* @optiml
   sizes:   n=16777213                  # grads 64 MiB read and written, inv_scale and found_inf 4 B each
   check:   n=1; n=3; n=4; n=5; n=255; n=1021; n=4096; n=65539; n=1100003
   grads:     inout float[n] normal(0,1000)
   found_inf: inout float[1] const(0)
   inv_scale: in    float[1] uniform(0.00001,0.0001)
   launch:  grid=min(cdiv(cdiv(n,4),256),1024) block=256
   flops:   n
   tol:     1e-5
*/
__global__ void amp_unscale_inf_check(float* grads, float* found_inf, const float* inv_scale, int n)
{
    float s = inv_scale[0];
    int stride = blockDim.x * gridDim.x;
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int n4 = n / 4;
    bool bad = false;

    float4* g4 = reinterpret_cast<float4*>(grads);
    for (int i = tid; i < n4; i += stride) {
        float4 v = g4[i];
        bad |= !isfinite(v.x) || !isfinite(v.y) || !isfinite(v.z) || !isfinite(v.w);
        v.x *= s;
        v.y *= s;
        v.z *= s;
        v.w *= s;
        g4[i] = v;
    }

    int t = n4 * 4 + tid;
    if (t < n) {
        float v = grads[t];
        bad |= !isfinite(v);
        grads[t] = v * s;
    }

    if (bad)
        found_inf[0] = 1.0f;
}
