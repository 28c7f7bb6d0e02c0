// out[b][j] = sum over k < j of x[b][k] (0 at j = 0): an exclusive prefix sum along dim 1 of a batch_size x dim float tensor (KernelBench level 1, 92_cumsum_exclusive, as torch.cumsum(x, dim=1) - x is meant); one thread per row.
/* @optiml
   sizes:  batch_size=8192 dim=4000     # 125 MiB in, 125 MiB out
   check:  batch_size=1 dim=1; batch_size=1 dim=2; batch_size=3 dim=7; batch_size=17 dim=1000; batch_size=130 dim=3; batch_size=2 dim=4000
   x:      in  float[batch_size*dim]
   out:    out float[batch_size*dim]
   launch: grid=cdiv(batch_size,128) block=128
   flops:  batch_size*dim
   tol:    1e-4
*/
__global__ void exclusive_cumsum_kernel(const float* x, float* out, int batch_size, int dim)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < batch_size) {
        float running = 0.0f;
        for (int j = 0; j < dim; j++) {
            out[row * dim + j] = running;
            running += x[row * dim + j];
        }
    }
}
