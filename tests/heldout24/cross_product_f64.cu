// c[i][k] = a[i][k+1] * b[i][k+2] - a[i][k+2] * b[i][k+1] (component indices mod 3): torch.linalg.cross(a, b, dim=-1) of 1.8 million pairs of 3-D vectors stored [n, 3] (array of structures) in float64 (torques, surface normals); one thread per output component, the vector and component from / and % of a long index, the two other components as (k + 1) % 3 and (k + 2) % 3, an early return.

/* @optiml
   sizes:   n=1800000                   # a, b 41 MiB each in, c 41 MiB out (float64)
   check:   n=1; n=2; n=85; n=86; n=1000; n=4097
   a:       in  double[3*n]
   b:       in  double[3*n]
   c:       out double[3*n]
   launch:  grid=cdiv(3*n,256) block=256
   flops:   3*3*n
   tol:     1e-5
*/
__global__ void cross_product_f64(const double* __restrict__ a, const double* __restrict__ b, double* __restrict__ c,
                                  long n)
{
    long t = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= 3 * n)
        return;

    long i = t / 3;
    int k = t % 3;
    int k1 = (k + 1) % 3;
    int k2 = (k + 2) % 3;

    const double* ai = a + 3 * i;
    const double* bi = b + 3 * i;
    c[t] = ai[k1] * bi[k2] - ai[k2] * bi[k1];
}
