// C[b][i][j][k] = sum_l A[b][i][j][l] * B[l][k]: KernelBench level 1's 4-D tensor-matrix multiplication (`torch.einsum("bijl,lk->bijk", A, B)`, 11_4D_tensor_matrix_multiplication) at b = 4, i = 64, j = 128, l = 256, k = 512 in fp32; one thread per output on a 1-D launch, an int64_t flat index decoded by / and % into the four output coordinates, early return, a row pointer into A and B read down its column.
#include <cstdint>

/* @optiml
   sizes:   nb=4 ni=64 nj=128 nl=256 nk=512   # A 32 MiB in, B 0.5 MiB in, C 64 MiB out; 8.6 GFLOP
   check:   nb=1 ni=1 nj=1 nl=1 nk=1; nb=2 ni=3 nj=5 nl=7 nk=9; nb=3 ni=2 nj=17 nl=33 nk=16; nb=3 ni=1 nj=4 nl=256 nk=3; nb=1 ni=5 nj=1 nl=2 nk=257; nb=2 ni=2 nj=2 nl=64 nk=65
   A:       in  float[nb*ni*nj*nl]
   B:       in  float[nl*nk]
   C:       out float[nb*ni*nj*nk]
   launch:  grid=cdiv(nb*ni*nj*nk,256) block=256
   flops:   2*nb*ni*nj*nk*nl
   tol:     1e-4
*/
__global__ void tensor4d_matmul(const float* A, const float* B, float* C, int nb, int ni, int nj, int nl, int nk)
{
    int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    int64_t total = (int64_t)nb * ni * nj * nk;
    if (idx >= total) return;

    int64_t k = idx % nk;
    int64_t j = (idx / nk) % nj;
    int64_t i = (idx / ((int64_t)nk * nj)) % ni;
    int64_t b = idx / ((int64_t)nk * nj * ni);

    const float* a = A + ((b * ni + i) * nj + j) * nl;
    float sum = 0.0f;
    for (int l = 0; l < nl; l++)
        sum += a[l] * B[(int64_t)l * nk + k];
    C[idx] = sum;
}
