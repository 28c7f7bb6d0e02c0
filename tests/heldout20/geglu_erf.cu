// out[t][i] = gelu(x[t][i]) * x[t][d + i] with the exact erf GELU: GeGLU over one [tokens, 2*d] projection whose first half is the gate (vLLM's GeluAndMul, approximate="none": F.gelu(x[..., :d]) * x[..., d:]); one thread per output, a 2-D grid with the token on y.
#define INV_SQRT2 0.70710678118654752f

__device__ float gelu_erf(float v)
{
    return 0.5f * v * (1.0f + erff(v * INV_SQRT2));
}

/* @optiml
   sizes:  tokens=4096 d=5504           # x 172 MiB in, out 86 MiB
   check:  tokens=1 d=1; tokens=3 d=7; tokens=17 d=1000; tokens=2 d=4099; tokens=300 d=2; tokens=5 d=128
   x:      in  float[tokens*2*d] normal(0,2)
   out:    out float[tokens*d]
   launch: grid=(cdiv(d,256),tokens) block=256
   flops:  8*tokens*d
*/
__global__ void geglu_forward(const float* x, float* out, int tokens, int d)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int t = blockIdx.y;
    if (i >= d || t >= tokens) return;

    const float* row = x + (long)t * 2 * d;
    float gate = row[i];
    float up = row[d + i];
    out[(long)t * d + i] = gelu_erf(gate) * up;
}
