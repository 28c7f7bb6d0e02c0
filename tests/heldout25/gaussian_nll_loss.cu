// loss[i] = 0.5 * (log(max(var[i], eps)) + (input[i] - target[i])^2 / max(var[i], eps)), eps = 1e-6: F.gaussian_nll_loss(input, target, var, reduction="none") (nn.GaussianNLLLoss with full=False, the loss of a regression network that predicts a mean and a variance per output) of 8 million predictions; a size_t grid-stride loop over at most 2048 blocks of 256, __restrict__ on the three inputs and the output, the variance clamped with fmaxf, logf.
#define VAR_EPS 1e-6f

/* @optiml
   sizes:   n=8388608                   # input, target, var 32 MiB each in, loss 32 MiB out
   check:   n=1; n=2; n=255; n=256; n=1000; n=4097; n=524289
   input:   in  float[n]
   target:  in  float[n]
   var:     in  float[n] uniform(0.01,2)
   loss:    out float[n]
   launch:  grid=min(cdiv(n,256),2048) block=256
   flops:   7*n
   tol:     1e-5
*/
__global__ void gaussian_nll_loss(const float* __restrict__ input, const float* __restrict__ target,
                                  const float* __restrict__ var, float* __restrict__ loss, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)blockDim.x * gridDim.x) {
        float v = fmaxf(var[i], VAR_EPS);
        float diff = input[i] - target[i];
        loss[i] = 0.5f * (logf(v) + diff * diff / v);
    }
}
