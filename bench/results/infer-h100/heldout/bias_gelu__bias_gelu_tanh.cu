// y[t,f] = gelu_tanh(x[t,f] + bias[f]) = 0.5*v*(1 + tanh(sqrt(2/pi)*(v + 0.044715*v^3))) with v = x[t,f] + bias[f]; x, y: tokens x features row-major.
#include <cuda_runtime.h>

#define GELU_SQRT_2_OVER_PI 0.7978845608028654f
#define GELU_COEF 0.044715f

/* @optiml
   sizes:  tokens=4096 features=4096
   x:      in float[tokens*features]
   bias:   in float[features]
   y:      out float[tokens*features]
   launch: grid=cdiv(tokens*features,256) block=256
*/
extern "C" __global__ void bias_gelu_tanh(const float* __restrict__ x,
                                          const float* __restrict__ bias,
                                          float* __restrict__ y,
                                          int tokens, int features)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    const int total = tokens * features;
    if (tid < total) {
        const float v = x[tid] + bias[tid % features];
        const float inner = GELU_SQRT_2_OVER_PI * (v + GELU_COEF * v * v * v);
        y[tid] = 0.5f * v * (1.0f + tanhf(inner));
    }
}
