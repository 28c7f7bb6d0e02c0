// data_col[(c*ksize + ky)*ksize + kx][h_out][w_out] = data_im[c][h_out*stride - pad + ky][w_out*stride - pad + kx], 0 outside the image: Caffe's im2col (one image, C x H x W, into a (C*ksize*ksize) x (height_col*width_col) matrix), here at ksize 3, pad 1, stride 1; one thread per (channel, output pixel) writing its ksize^2 column entries.
#define CUDA_KERNEL_LOOP(i, n) \
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += blockDim.x * gridDim.x)

/* @optiml
   sizes:      C=64 H=256 W=256         # 16 MiB image in, 9 x 16 MiB = 144 MiB of columns out
   check:      C=1 H=1 W=1; C=3 H=5 W=7; C=2 H=1 W=9; C=1 H=33 W=2; C=5 H=16 W=16
   data_im:    in  float[C*H*W]
   data_col:   out float[C*9*H*W]
   n:          C*H*W
   height:     H
   width:      W
   ksize:      3
   pad:        1
   stride:     1
   height_col: H
   width_col:  W
   launch:     grid=min(cdiv(C*H*W,512),4096) block=512
*/
__global__ void im2col_gpu_kernel(const int n, const float* data_im, const int height, const int width,
                                  const int ksize, const int pad, const int stride, const int height_col,
                                  const int width_col, float* data_col)
{
    CUDA_KERNEL_LOOP(index, n) {
        int w_out = index % width_col;
        int h_index = index / width_col;
        int h_out = h_index % height_col;
        int channel_in = h_index / height_col;
        int channel_out = channel_in * ksize * ksize;
        int h_in = h_out * stride - pad;
        int w_in = w_out * stride - pad;
        float* data_col_ptr = data_col + (channel_out * height_col + h_out) * width_col + w_out;
        const float* data_im_ptr = data_im + (channel_in * height + h_in) * width + w_in;
        for (int i = 0; i < ksize; ++i) {
            for (int j = 0; j < ksize; ++j) {
                int h = h_in + i;
                int w = w_in + j;
                *data_col_ptr = (h >= 0 && w >= 0 && h < height && w < width) ?
                    data_im_ptr[i * width + j] : 0;
                data_col_ptr += height_col * width_col;
            }
        }
    }
}
