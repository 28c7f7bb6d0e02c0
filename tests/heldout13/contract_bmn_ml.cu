// Y[b][n][l] = sum over m of X[b][m][n] * W[m][l]: contraction of a B x M x N tensor with an M x L matrix along the tensor's middle axis (torch.einsum("bmn,ml->bnl", X, W)).
/* @optiml
   sizes:  B=16 M=512 N=1024 L=512      # 32 MiB of X, 1 MiB of W, 32 MiB of Y
   check:  B=1 M=1 N=1 L=1; B=2 M=3 N=5 L=7; B=3 M=33 N=17 L=65; B=1 M=200 N=1 L=2; B=2 M=2 N=100 L=1
   X:      in  float[B*M*N]
   W:      in  float[M*L]
   Y:      out float[B*N*L]
   launch: grid=(cdiv(L,16),cdiv(N,16),B) block=(16,16)
   flops:  2*B*N*L*M
   tol:    1e-4
*/
__global__ void contract_bmn_ml(const float* X, const float* W, float* Y, int B, int M, int N, int L)
{
    int l = blockIdx.x * blockDim.x + threadIdx.x;
    int n = blockIdx.y * blockDim.y + threadIdx.y;
    int b = blockIdx.z;
    if (n >= N || l >= L) return;
    const float* Xb = X + (size_t)b * M * N;
    float sum = 0.0f;
    for (int m = 0; m < M; m++)
        sum += Xb[(size_t)m * N + n] * W[(size_t)m * L + l];
    Y[((size_t)b * N + n) * L + l] = sum;
}
