// y = (clamp(rint(w * (1 / scale[c])) + zp[c], -128, 127) - zp[c]) * scale[c] for each row c: torch.fake_quantize_per_channel_affine(w, scale, zero_point, axis=0, quant_min=-128, quant_max=127), the per-output-channel int8 fake quantization of a weight in quantization-aware training (torch.ao's FakeQuantize with a per-channel observer), a 4096 x 4096 weight; one thread per element, row c = i / K, int32 zero points, the reciprocal of the scale multiplied as PyTorch's kernels do, rintf (round half to even).

/* @optiml
   sizes:   C=4096 K=4096               # w 64 MiB in, y 64 MiB out, scale and zero_point 16 KiB each
   check:   C=1 K=1; C=3 K=7; C=2 K=255; C=5 K=256; C=1 K=257; C=17 K=100; C=64 K=33
   w:          in  float[C*K]
   scale:      in  float[C] uniform(0.004,0.02)
   zero_point: in  int[C] range(-10,11)
   y:          out float[C*K]
   launch:  grid=cdiv(C*K,256) block=256
   flops:   6*C*K
   tol:     1e-5
*/
__global__ void fake_quant_per_channel(const float* w, const float* scale, const int* zero_point, float* y, int C, int K)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= C * K)
        return;

    int c = i / K;
    float s = scale[c];
    float inv_s = 1.0f / s;
    int zp = zero_point[c];

    int q = (int)rintf(w[i] * inv_s) + zp;
    q = q < -128 ? -128 : (q > 127 ? 127 : q);
    y[i] = (float)(q - zp) * s;
}
