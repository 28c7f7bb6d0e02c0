// out[r][j] = x[r][j / 2]: nearest-neighbour upsampling by 2 along each row of a rows x L signal (F.interpolate(scale_factor=2, mode="nearest")), one thread per output element.
/* @optiml
   sizes:  rows=8192 L=4096             # 128 MiB in, 256 MiB out
   check:  rows=1 L=1; rows=3 L=5; rows=17 L=1000; rows=300 L=2; rows=1 L=4097
   x:      in  float[rows*L]
   out:    out float[rows*2*L]
   launch: grid=cdiv(rows*2*L,256) block=256
*/
__global__ void upsample_nearest2x(const float* x, float* out, int rows, int L)
{
    size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int OL = 2 * L;
    if (idx < (size_t)rows * OL) {
        size_t r = idx / OL;
        int j = idx % OL;
        out[idx] = x[r * L + j / 2];
    }
}
