/* @optiml
   sizes:  P=256 H=256 W=256
   x:      in float[P*H*W]
   out:    out float[P*(H/2)*(W/2)]
   launch: grid=(cdiv(W/2,16),cdiv(H/2,16),P) block=(16,16,1)
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
