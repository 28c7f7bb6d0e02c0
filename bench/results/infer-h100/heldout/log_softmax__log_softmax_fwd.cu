// logp[b,k] = logits[b,k] - log(sum_j exp(logits[b,j])) (log-softmax over classes); logits, logp are batch x classes row-major.
#include <math.h>

/* @optiml
   sizes:  batch=4096 classes=4096
   logits: in float[batch*classes]
   logp:   out float[batch*classes]
   launch: grid=cdiv(batch,256) block=256
*/
extern "C" __global__ void log_softmax_fwd(const float* logits, float* logp, int batch, int classes)
{
    int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= batch)
        return;

    int base = b * classes;
    float m = logits[base];
    for (int k = 1; k < classes; ++k) {
        float v = logits[base + k];
        m = v > m ? v : m;
    }

    float s = 0.0f;
    for (int k = 0; k < classes; ++k)
        s += expf(logits[base + k] - m);

    float lse = m + logf(s);
    for (int k = 0; k < classes; ++k)
        logp[base + k] = logits[base + k] - lse;
}
