// out[b][j] = argmax over i of x[b][i][j] (the first index among equal maxima): torch.argmax(x, dim=1) of a batch_size x dim1 x dim2 tensor into int64 (KernelBench level 1, 51_Argmax_over_a_dimension); one thread per (b, j), a 2-D grid with the batch on y, walking down dim1 with a stride of dim2.
#include <cstdint>

/* @optiml
   sizes:  batch_size=16 dim1=4096 dim2=1024   # 2^26 floats: 256 MiB in, 128 KiB of int64 out
   check:  batch_size=1 dim1=1 dim2=1; batch_size=2 dim1=7 dim2=3; batch_size=3 dim1=1000 dim2=1; batch_size=1 dim1=33 dim2=257; batch_size=4 dim1=2 dim2=100; batch_size=2 dim1=513 dim2=64
   x:      in  float[batch_size*dim1*dim2]
   out:    out int64_t[batch_size*dim2]
   launch: grid=(cdiv(dim2,256),batch_size) block=256
   flops:  batch_size*dim1*dim2
*/
__global__ void argmax_dim1_kernel(const float* x, int64_t* out, int batch_size, int dim1, int dim2)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int b = blockIdx.y;
    if (j >= dim2 || b >= batch_size) return;

    const float* base = x + (size_t)b * dim1 * dim2 + j;
    float max_val = base[0];
    int64_t max_idx = 0;
    for (int i = 1; i < dim1; i++) {
        float v = base[(size_t)i * dim2];
        if (v > max_val) {   // strict: the first maximum wins, as torch.argmax
            max_val = v;
            max_idx = i;
        }
    }
    out[(size_t)b * dim2 + j] = max_idx;
}
