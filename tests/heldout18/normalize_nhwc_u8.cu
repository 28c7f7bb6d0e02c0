// out[n][c][h][w] = (img[n][h][w][c] / 255 - mean[c]) / std[c] with the ImageNet mean (0.485, 0.456, 0.406) and std (0.229, 0.224, 0.225): torchvision's ToTensor + Normalize applied to a batch of 8-bit HWC RGB images, into NCHW float; one thread per pixel writing its three channel planes, the constants in local arrays, a 3-D grid (columns, rows, image).
/* @optiml
   sizes:  N=64 H=512 W=512             # 48 MiB of uint8 in, 192 MiB of float out
   check:  N=1 H=1 W=1; N=2 H=3 W=5; N=1 H=33 W=65; N=3 H=8 W=1; N=1 H=1 W=100
   img:    in  unsigned char[N*H*W*3] range(0,256)
   out:    out float[N*3*H*W]
   launch: grid=(cdiv(W,32),cdiv(H,8),N) block=(32,8)
   flops:  6*N*H*W
*/
__global__ void normalize_nhwc_u8_to_nchw(const unsigned char* img, float* out, int N, int H, int W)
{
    constexpr int kChannels = 3;
    const float mean[kChannels] = {0.485f, 0.456f, 0.406f};
    const float stdv[kChannels] = {0.229f, 0.224f, 0.225f};

    const int w = blockIdx.x * blockDim.x + threadIdx.x;
    const int h = blockIdx.y * blockDim.y + threadIdx.y;
    const int n = blockIdx.z;
    if (w >= W || h >= H || n >= N)
        return;

    const size_t plane = static_cast<size_t>(H) * W;
    const unsigned char* px = img + ((static_cast<size_t>(n) * H + h) * W + w) * kChannels;
    float* o = out + static_cast<size_t>(n) * kChannels * plane + static_cast<size_t>(h) * W + w;
    for (int c = 0; c < kChannels; ++c)
        o[c * plane] = (static_cast<float>(px[c]) / 255.0f - mean[c]) / stdv[c];
}
