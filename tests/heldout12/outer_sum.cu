// C[i][j] = a[i] + b[j]: the outer sum of a (length m) and b (length n) into an m x n row-major matrix.
/* @optiml
   sizes:  m=8192 n=8192                # 256 MiB out, 2 x 32 KiB in
   check:  m=1 n=1; m=3 n=5; m=33 n=17; m=1 n=1000; m=257 n=2
   a:      in  float[m]
   b:      in  float[n]
   C:      out float[m*n]
   launch: grid=(cdiv(n,32),cdiv(m,8)) block=(32,8)
   flops:  m*n
*/
__global__ void outer_sum(const float* a, const float* b, float* C, size_t m, size_t n)
{
    size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    size_t i = blockIdx.y * (size_t)blockDim.y + threadIdx.y;
    if (i >= m || j >= n) return;
    *(C + i * n + j) = *(a + i) + *(b + j);
}
