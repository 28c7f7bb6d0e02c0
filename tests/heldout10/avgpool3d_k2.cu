// out[p,d,h,w] = mean of the 2x2x2 block x[p, 2d..2d+1, 2h..2h+1, 2w..2w+1] (3-D average pool, kernel 2, stride 2, floor mode); x is P x D x H x W (P = batch*channels).
/* @optiml
   sizes:  P=64 D=64 H=128 W=128        # 2^26 floats: 256 MiB in, 32 MiB out
   check:  P=1 D=2 H=2 W=2; P=2 D=3 H=5 W=7; P=3 D=4 H=2 W=9; P=1 D=5 H=11 W=2
   x:      in  float[P*D*H*W]
   out:    out float[P*(D/2)*(H/2)*(W/2)]
   launch: grid=cdiv(P*(D/2)*(H/2)*(W/2),256) block=256
   flops:  8*P*(D/2)*(H/2)*(W/2)
*/
__global__ void avgpool3d(const float* x, float* out, int P, int D, int H, int W)
{
    int OD = D / 2, OH = H / 2, OW = W / 2;
    size_t total = (size_t)P * OD * OH * OW;
    size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;

    int ow = idx % OW;
    int oh = (idx / OW) % OH;
    int od = (idx / ((size_t)OW * OH)) % OD;
    size_t p = idx / ((size_t)OW * OH * OD);

    float sum = 0.0f;
    for (int dd = 0; dd < 2; dd++)
        for (int hh = 0; hh < 2; hh++)
            for (int ww = 0; ww < 2; ww++)
                sum += x[((p * D + 2 * od + dd) * H + 2 * oh + hh) * W + 2 * ow + ww];
    out[idx] = sum / 8.0f;
}
