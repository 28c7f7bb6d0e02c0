// kl[b] = sum over c of exp(logp[b][c]) * (logp[b][c] - logq[b][c]): KL(P || Q) per row, both given as log-probabilities (F.kl_div(logq, logp, reduction="none", log_target=True) summed over each row).
/* @optiml
   sizes:  batch=32768 classes=1000     # 2 x 125 MiB in, 128 KiB out
   check:  batch=1 classes=1; batch=2 classes=3; batch=33 classes=100; batch=5 classes=1001
   logp:   in  float[batch*classes]
   logq:   in  float[batch*classes]
   kl:     out float[batch]
   launch: grid=cdiv(batch,256) block=256
   flops:  4*batch*classes
   tol:    1e-4
*/
__global__ void kl_div_rows(const float* __restrict__ logp, const float* __restrict__ logq, float* __restrict__ kl,
                            int batch, int classes)
{
    int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= batch) return;
    int base = b * classes;
    float acc = 0.f;
    for (int c = 0; c < classes; ++c) {
        float lp = logp[base + c];
        acc += expf(lp) * (lp - logq[base + c]);
    }
    kl[b] = acc;
}
