// dist[i][j] = sum over k of (x1[i][k] - x2[j][k])^2: pairwise squared Euclidean distances between the rows of x1 (n1 x dim) and x2 (n2 x dim) (torch.cdist(x1, x2) ** 2, computed directly, not via the matmul expansion), one thread per pair.
/* @optiml
   sizes:  n1=4096 n2=4096 dim=128      # 2 x 2 MiB in, 64 MiB out
   check:  n1=1 n2=1 dim=1; n1=3 n2=5 dim=7; n1=33 n2=17 dim=128; n1=100 n2=1 dim=3; n1=2 n2=300 dim=64
   x1:     in  float[n1*dim]
   x2:     in  float[n2*dim]
   dist:   out float[n1*n2]
   launch: grid=(cdiv(n2,16),cdiv(n1,16)) block=(16,16)
   flops:  3*n1*n2*dim
   tol:    1e-4
*/
__global__ void pairwise_sqdist(const float* __restrict__ x1, const float* __restrict__ x2, float* __restrict__ dist,
                                int n1, int n2, int dim)
{
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n1 && col < n2) {
        float sum = 0;
        for (int k = 0; k < dim; ++k) {
            float diff = x1[row * dim + k] - x2[col * dim + k];
            sum += diff * diff;
        }
        dist[row * n2 + col] = sum;
    }
}
