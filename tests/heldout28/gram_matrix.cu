// G[b][i][j] = (1 / (C H W)) sum_p F[b][i][p] * F[b][j][p], F = x viewed as [B, C, H*W]: the Gram matrix of neural style transfer's style loss (the PyTorch tutorial's `gram_matrix`, `torch.mm(features, features.t()).div(a * b * c * d)`, batched as `torch.bmm(f, f.transpose(1, 2)).div(C * H * W)`) of VGG-19 relu3_1 features of 8 images at 256 x 256 ([8, 256, 64, 64]) in fp32; one thread per entry on a 3-D grid of 16 x 16 blocks (j on x, i on y, blockIdx.z the image), early return, both operands rows of the same feature matrix, __restrict__ on both pointers, the scale applied after the loop.

/* @optiml
   sizes:   B=8 C=256 HW=4096   # feat 32 MiB in, gram 2 MiB out; 4.3 GFLOP
   check:   B=1 C=1 HW=1; B=2 C=3 HW=7; B=1 C=17 HW=33; B=3 C=5 HW=256; B=1 C=20 HW=1; B=1 C=2 HW=300
   feat:    in  float[B*C*HW]
   gram:    out float[B*C*C]
   launch:  grid=(cdiv(C,16),cdiv(C,16),B) block=(16,16)
   flops:   2*B*C*C*HW
   tol:     1e-4
*/
__global__ void gram_matrix(const float* __restrict__ feat, float* __restrict__ gram, int B, int C, int HW)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int b = blockIdx.z;
    if (i >= C || j >= C) return;

    const float* fi = feat + ((size_t)b * C + i) * HW;
    const float* fj = feat + ((size_t)b * C + j) * HW;
    float s = 0.0f;
    for (int p = 0; p < HW; ++p)
        s += fi[p] * fj[p];
    gram[((size_t)b * C + i) * C + j] = s / (float)(C * HW);
}
