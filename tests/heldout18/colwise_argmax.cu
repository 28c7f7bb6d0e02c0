// idx[c] = argmax over r of a[r][c] (the first index among equal maxima, as torch.argmax(a, dim=0)): the column-wise argmax of a row-major R x C matrix into int64; one thread per column, a pointer walking down the column in a while loop.
/* @optiml
   sizes:  R=8192 C=8192                # 256 MiB in, 64 KiB of int64 indices out
   check:  R=1 C=1; R=7 C=3; R=1000 C=1; R=33 C=257; R=2 C=100; R=513 C=64
   a:      in  float[R*C]
   idx:    out long[C]
   launch: grid=cdiv(C,256) block=256
   flops:  R*C
*/
__global__ void argmax_dim0(const float *a, long *idx, long R, long C)
{
    long c = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (c >= C) return;

    const float *p = a + c;
    float best = *p;
    long arg = 0;
    long r = 1;
    p += C;
    while (r < R) {
        if (*p > best) {        /* strict: a tie keeps the earlier row */
            best = *p;
            arg = r;
        }
        p += C;
        ++r;
    }
    idx[c] = arg;
}
