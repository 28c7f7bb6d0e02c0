// h[n] <- exp(delta[b][d][l] * A[d][n]) * h[n] + delta[b][d][l] * Bm[b][n][l] * u[b][d][l], y[b][d][l] = sum over n of Cm[b][n][l] * h[n] + Dskip[d] * u[b][d][l], h starting at 0: Mamba's selective scan (mamba_ssm selective_scan_ref, no z gate, no softplus on delta, B and C shared over the channels) with a state size of 16; one thread per (b, d) channel walking its L steps with the state in a local array.
#define DSTATE 16

/* @optiml
   sizes:  batch=4 dim=2048 seqlen=2048     # u, delta 64 MiB each in, y 64 MiB out, Bm / Cm 0.5 MiB each
   check:  batch=1 dim=1 seqlen=1; batch=2 dim=3 seqlen=7; batch=1 dim=17 seqlen=100; batch=3 dim=5 seqlen=33; batch=1 dim=64 seqlen=300; batch=2 dim=130 seqlen=2
   u:      in  float[batch*dim*seqlen]
   delta:  in  float[batch*dim*seqlen] uniform(0.001,0.1)
   A:      in  float[dim*16] uniform(-4,-0.5)
   Bm:     in  float[batch*16*seqlen]
   Cm:     in  float[batch*16*seqlen]
   Dskip:  in  float[dim]
   y:      out float[batch*dim*seqlen]
   launch: grid=(cdiv(dim,128),batch) block=128
   flops:  7*16*batch*dim*seqlen
   tol:    1e-4
*/
__global__ void selective_scan_fwd(const float* u, const float* delta, const float* A, const float* Bm,
                                   const float* Cm, const float* Dskip, float* y, int batch, int dim, int seqlen)
{
    int d = blockIdx.x * blockDim.x + threadIdx.x;
    int b = blockIdx.y;
    if (d >= dim || b >= batch) return;

    float h[DSTATE];
    for (int n = 0; n < DSTATE; n++)
        h[n] = 0.0f;

    long chan = ((long)b * dim + d) * seqlen;
    const float* Bb = Bm + (long)b * DSTATE * seqlen;
    const float* Cb = Cm + (long)b * DSTATE * seqlen;

    for (int l = 0; l < seqlen; l++) {
        float dt = delta[chan + l];
        float x = u[chan + l];
        float acc = 0.0f;
        for (int n = 0; n < DSTATE; n++) {
            h[n] = expf(dt * A[d * DSTATE + n]) * h[n] + dt * Bb[(long)n * seqlen + l] * x;
            acc += Cb[(long)n * seqlen + l] * h[n];
        }
        y[chan + l] = acc + Dskip[d] * x;
    }
}
