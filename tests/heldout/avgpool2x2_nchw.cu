// out[p,i,j] = mean of x[p, 2i..2i+1, 2j..2j+1] (2x2 average pool, stride 2, floor mode: an odd last row/column is dropped); x is P x H x W (P = batch*channels planes), out is P x (H/2) x (W/2).
/* @optiml
   sizes:  P=256 H=512 W=512            # 256 MiB in, 64 MiB out
   check:  P=3 H=37 W=33; P=1 H=2 W=2; P=2 H=3 W=101; P=5 H=100 W=2
   x:      in  float[P*H*W]
   out:    out float[P*(H/2)*(W/2)]
   launch: grid=(cdiv(W/2,16),cdiv(H/2,16),P) block=(16,16,1)
   flops:  4*P*(H/2)*(W/2)
*/
__global__ void avgpool2x2_nchw(const float* x, float* out, int P, int H, int W)
{
    const int OH = H / 2, OW = W / 2;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int p = blockIdx.z;
    if (i < OH && j < OW) {
        const float* plane = x + (size_t)p * H * W;
        float s = plane[(2 * i) * W + 2 * j] + plane[(2 * i) * W + 2 * j + 1]
                + plane[(2 * i + 1) * W + 2 * j] + plane[(2 * i + 1) * W + 2 * j + 1];
        out[((size_t)p * OH + i) * OW + j] = 0.25f * s;
    }
}
