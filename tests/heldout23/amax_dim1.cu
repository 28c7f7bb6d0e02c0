// out[b][k] = max_j x[b][j][k]: torch.amax(x, dim=1) (KernelBench level 1's Max reduction over a dimension, the middle one of a [B, D1, D2] tensor; here [16, 4096, 512]); blocks of 32 x 16 threads on (cdiv(D2, 32), B), each block owning 32 consecutive columns so that a warp reads 32 adjacent floats, the 16 thread rows striding over D1, a 16 x 32 shared array of partial maxima folded in a tree over threadIdx.y, thread row 0 writing.
#include <cmath>

/* @optiml
   sizes:   B=16 D1=4096 D2=512         # x 128 MiB in, out 32 KiB
   check:   B=1 D1=1 D2=1; B=2 D1=7 D2=5; B=3 D1=100 D2=33; B=1 D1=17 D2=64; B=4 D1=16 D2=31; B=2 D1=300 D2=1
   x:       in  float[B*D1*D2]
   out:     out float[B*D2]
   launch:  grid=(cdiv(D2,32),B) block=(32,16)
   flops:   B*D1*D2
   tol:     1e-5
*/
__global__ void amax_dim1(const float* x, float* out, int B, int D1, int D2)
{
    __shared__ float part[16][32];

    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int k = blockIdx.x * 32 + tx;
    int b = blockIdx.y;

    float m = -INFINITY;
    if (k < D2) {
        for (int j = ty; j < D1; j += blockDim.y)
            m = fmaxf(m, x[((long)b * D1 + j) * D2 + k]);
    }
    part[ty][tx] = m;
    __syncthreads();

    for (int s = blockDim.y / 2; s > 0; s >>= 1) {
        if (ty < s)
            part[ty][tx] = fmaxf(part[ty][tx], part[ty + s][tx]);
        __syncthreads();
    }

    if (ty == 0 && k < D2)
        out[b * D2 + k] = part[0][tx];
}
