// c = alpha * a b in fp32, NN layout: a is m x k, b is k x n, c is m x n, all row-major. Early-return guard, a
// while loop over k with the factors loaded into temporaries, indices written `col + row * n`.

/* @optiml
   sizes:  m=1024 n=1024 k=1024
   check:  m=33 n=17 k=100; m=1 n=1 k=3; m=65 n=129 k=1; m=100 n=3 k=257
   a:      in  float[m*k]
   b:      in  float[k*n]
   c:      out float[m*n]
   alpha:  0.75
   launch: grid=(cdiv(n,16),cdiv(m,16)) block=(16,16)
   flops:  2*m*n*k
   tol:    1e-4
*/
__global__ void matmul_nn(const float* a, const float* b, float* c, float alpha, int m, int n, int k)
{
    int col = threadIdx.x + blockIdx.x * blockDim.x;
    int row = threadIdx.y + blockIdx.y * blockDim.y;
    if (row >= m || col >= n) return;
    float acc = 0.f;
    int p = 0;
    while (p < k) {
        float av = a[row * k + p];
        float bv = b[p * n + col];
        acc += av * bv;
        p++;
    }
    c[col + row * n] = alpha * acc;
}
