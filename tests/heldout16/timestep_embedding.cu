// out[b][i] = cos(t[b] * f_i) and out[b][half + i] = sin(t[b] * f_i) for i < half = dim/2, with f_i = exp(-log(max_period) * i / half), and out[b][dim-1] = 0 when dim is odd: the sinusoidal timestep embedding of diffusion models (guided-diffusion's timestep_embedding), one thread per output element.
#include <math.h>

/* @optiml
   sizes:      B=65536 dim=256          # 64 MiB out, 256 KiB of timesteps in
   check:      B=1 dim=1; B=1 dim=2; B=3 dim=8; B=5 dim=7; B=37 dim=320; B=1000 dim=3
   timesteps:  in  float[B] uniform(0,1000)
   out:        out float[B*dim]
   max_period: 10000.0
   launch:     grid=cdiv(B*dim,256) block=256
   flops:      4*B*dim
   tol:        1e-4
*/
__global__ void timestep_embedding(const float* timesteps, float* out, float max_period, int B, int dim)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= B * dim)
        return;
    int b = idx / dim;
    int j = idx % dim;
    int half = dim / 2;

    if (j >= 2 * half) {   // odd dim: zero padding column
        out[idx] = 0.0f;
        return;
    }
    int i = j < half ? j : j - half;
    float freq = expf(-logf(max_period) * (float)i / (float)half);
    float arg = timesteps[b] * freq;
    out[idx] = j < half ? cosf(arg) : sinf(arg);
}
