// out[r][:d1] = a[r], out[r][d1:] = b[r]: torch.cat((a, b), dim=-1) of a rows x d1 and a rows x d2 tensor (as DeepSeek-V2's MLA joins q_nope and q_pe per head); one thread per output element, a 2-D grid over (column of out, row).
/* @optiml
   sizes:  rows=65536 d1=512 d2=64      # a 128 MiB, b 16 MiB in, out 144 MiB
   check:  rows=1 d1=1 d2=1; rows=3 d1=7 d2=5; rows=17 d1=128 d2=1; rows=2 d1=1 d2=300; rows=100 d1=33 d2=64; rows=9 d1=250 d2=31
   a:      in  float[rows*d1]
   b:      in  float[rows*d2]
   out:    out float[rows*(d1+d2)]
   launch: grid=(cdiv(d1+d2,32),cdiv(rows,8)) block=(32,8)
*/
__global__ void concat_last_dim(const float* a, const float* b, float* out, int rows, int d1, int d2)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int width = d1 + d2;
    if (row >= rows || col >= width)
        return;

    float v;
    if (col < d1)
        v = a[(long)row * d1 + col];
    else
        v = b[(long)row * d2 + (col - d1)];
    out[(long)row * width + col] = v;
}
