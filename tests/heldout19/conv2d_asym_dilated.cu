// output[n][oc][oh][ow] = sum over ic, kh < 3, kw < 5 of weight[oc][ic][kh][kw] * input[n][ic][oh-1+2*kh][ow-2+kw], zero padding: nn.Conv2d(in_channels, out_channels, (3, 5), stride=1, padding=(1, 2), dilation=(2, 1), bias=False) (KernelBench level 1, 80_conv_standard_2D_square_input_asymmetric_kernel_dilated_padded), out height - 2 x width; one thread per output, a 3-D grid whose z axis is (n, oc).
#define KH 3
#define KW 5
#define PAD_H 1
#define PAD_W 2
#define DIL_H 2
#define DIL_W 1

/* @optiml
   sizes:  batch_size=16 in_channels=3 out_channels=64 height=256 width=256   # input 12 MiB in, output 254 MiB
   check:  batch_size=1 in_channels=1 out_channels=1 height=3 width=1; batch_size=1 in_channels=2 out_channels=3 height=4 width=5; batch_size=2 in_channels=3 out_channels=2 height=9 width=33; batch_size=1 in_channels=4 out_channels=5 height=20 width=7; batch_size=3 in_channels=1 out_channels=1 height=5 width=40
   input:  in  float[batch_size*in_channels*height*width]
   weight: in  float[out_channels*in_channels*15]   # 3 x 5 taps
   output: out float[batch_size*out_channels*(height-2)*width]
   launch: grid=(cdiv(width,32),cdiv(height-2,8),batch_size*out_channels) block=(32,8)
   flops:  30*batch_size*out_channels*(height-2)*width*in_channels
   tol:    1e-4
*/
__global__ void conv2d_asym_dilated(const float* input, const float* weight, float* output, int batch_size,
                                    int in_channels, int out_channels, int height, int width)
{
    const int out_h = height + 2 * PAD_H - DIL_H * (KH - 1);
    const int out_w = width + 2 * PAD_W - DIL_W * (KW - 1);
    const int ow = blockIdx.x * blockDim.x + threadIdx.x;
    const int oh = blockIdx.y * blockDim.y + threadIdx.y;
    const int n = blockIdx.z / out_channels;
    const int oc = blockIdx.z % out_channels;
    if (ow >= out_w || oh >= out_h)
        return;

    float acc = 0.0f;
    for (int ic = 0; ic < in_channels; ++ic) {
        const float* in = input + ((size_t)n * in_channels + ic) * height * width;
        const float* w = weight + ((size_t)oc * in_channels + ic) * KH * KW;
        for (int kh = 0; kh < KH; ++kh) {
            int ih = oh - PAD_H + kh * DIL_H;
            if (ih < 0 || ih >= height) continue;
            for (int kw = 0; kw < KW; ++kw) {
                int iw = ow - PAD_W + kw * DIL_W;
                if (iw < 0 || iw >= width) continue;
                acc += in[ih * width + iw] * w[kh * KW + kw];
            }
        }
    }
    output[(((size_t)n * out_channels + oc) * out_h + oh) * out_w + ow] = acc;
}
