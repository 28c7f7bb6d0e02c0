// y[i] = sum over j <= i of L[i][j] * x[j]: product of the lower triangle (diagonal included) of an n x n row-major matrix with a vector (torch.tril(L) @ x); the strict upper triangle is never read.
/* @optiml
   sizes:  n=8192                       # L allocated whole (256 MiB) but only its lower triangle read: 128 MiB, plus 2 x 32 KiB
   check:  n=1; n=2; n=7; n=255; n=1000
   L:      in  float[n*n]
   x:      in  float[n]
   y:      out float[n]
   launch: grid=cdiv(n,128) block=128
   flops:  n*(n+1)
   bytes:  2*n*(n+1) + 8*n              # 4*n*(n+1)/2 bytes of the triangle read, x read, y written
   tol:    1e-4
*/
__global__ void tril_matvec(const float* L, const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float* Li = L + (size_t)i * n;
    float acc = 0.f;
    for (int j = 0; j <= i; ++j)
        acc += Li[j] * x[j];
    y[i] = acc;
}
