// out[i] = x[i] / (1 + |x[i]|): the Softsign activation (F.softsign, KernelBench level 1, 30_Softsign) over a batch_size x dim tensor; a grid-stride loop over the flat elements.
/* @optiml
   sizes:        batch_size=4096 dim=8192   # 2^25 floats: 128 MiB in, 128 MiB out
   check:        batch_size=1 dim=1; batch_size=3 dim=7; batch_size=16 dim=1000; batch_size=129 dim=33; batch_size=2 dim=4097
   x:            in  float[batch_size*dim] normal(0,3)
   out:          out float[batch_size*dim]
   num_elements: batch_size*dim
   launch:       grid=min(cdiv(batch_size*dim,256),4096) block=256
   flops:        3*batch_size*dim
*/
__global__ void softsign_kernel(const float* x, float* out, int num_elements)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < num_elements; i += blockDim.x * gridDim.x) {
        out[i] = x[i] / (1.0f + fabsf(x[i]));
    }
}
