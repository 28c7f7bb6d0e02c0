// grad_bias[c] = sum over n, h, w of grad_out[n][c][h][w]: the bias gradient of a Conv2d (grad_out.sum(dim=(0, 2, 3))) over an N x C x H x W tensor, reducing the batch and spatial axes around the channel axis, one thread per channel.
/* @optiml
   sizes:     N=64 C=256 H=64 W=64      # 2^26 floats: 256 MiB in, 1 KiB out
   check:     N=1 C=1 H=1 W=1; N=2 C=3 H=5 W=7; N=3 C=70 H=9 W=11; N=1 C=300 H=2 W=3; N=17 C=2 H=1 W=100
   grad_out:  in  float[N*C*H*W]
   grad_bias: out float[C]
   launch:    grid=cdiv(C,64) block=64
   flops:     N*C*H*W
   tol:       1e-4
*/
__global__ void conv2d_bias_grad(const float* grad_out, float* grad_bias, int N, int C, int H, int W)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c < C) {
        const int HW = H * W;
        float sum = 0;
        for (int n = 0; n < N; ++n) {
            const float* plane = grad_out + ((size_t)n * C + c) * HW;
            for (int i = 0; i < HW; ++i)
                sum += plane[i];
        }
        grad_bias[c] = sum;
    }
}
