// y[i] = (1/beta) * log(1 + exp(beta * x[i])), or x[i] itself where beta * x[i] > threshold: softplus with beta and a linear threshold (F.softplus(x, beta, threshold)), over n floats with a grid-stride loop.
/* @optiml
   sizes:     n=67108864                # 2^26 floats: 256 MiB in, 256 MiB out
   check:     n=1; n=255; n=1000003
   x:         in  float[n] normal(0,6)  # beta*x > 20 for about 5% of the elements, so both branches run
   y:         out float[n]
   beta:      2.0
   threshold: 20.0
   launch:    grid=min(cdiv(n,256),4096) block=256
   flops:     5*n
*/
__global__ void softplus_beta(const float* x, float* y, float beta, float threshold, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;
    for (int i = tid; i < n; i += stride) {
        float bx = beta * x[i];
        y[i] = (bx > threshold) ? x[i] : log1pf(expf(bx)) / beta;
    }
}
