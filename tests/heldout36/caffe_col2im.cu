// data_im[c][h][w] = sum of data_col[(c * kernel_h + h_k) * kernel_w + w_k][h_col][w_col] over the column positions (h_col, w_col) and taps (h_k, w_k) with h + pad_h = h_col * stride_h + h_k * dilation_h (and likewise for w): Caffe's `col2im_gpu` (the fold that ends a `Deconvolution` layer's forward pass and a `Convolution` layer's backward pass; the adjoint of im2col, `F.fold`) for a 4 x 4, stride 2, pad 1 deconvolution (an FCN / DCGAN-style 2x upsampling) into a 64-channel 256 x 256 image from a [1024, 128 x 128] column buffer; Caffe's `col2im_gpu_kernel` as written: `template <typename Dtype>` (`template: Dtype=float`), `CUDA_KERNEL_LOOP(index, n)` defined in the file, Caffe's argument list (sizes, kernel, pad, stride and dilation pairs, `height_col`, `width_col`), `kernel_extent` locals, ternary start and `min` end of the contributing column range, two nested loops with a `%` test on the dilation, `Dtype val = 0` and 512-thread `CAFFE_GET_BLOCKS` blocks.

#define CUDA_KERNEL_LOOP(i, n) \
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; \
       i < (n); \
       i += blockDim.x * gridDim.x)

/* @optiml
   template:   Dtype=float
   sizes:      channels=64 height=256 width=256   # data_col 64 MiB in, data_im 16 MiB out; 17 MFLOP
   check:      channels=1 height=2 width=2; channels=2 height=3 width=5; channels=3 height=16 width=17; channels=1 height=40 width=33; channels=5 height=9 width=2; channels=2 height=64 width=63
   data_col:   in  float[channels*16*((height+2-4)/2+1)*((width+2-4)/2+1)]
   data_im:    out float[channels*height*width]
   n:          channels*height*width
   kernel_h:   4
   kernel_w:   4
   pad_h:      1
   pad_w:      1
   stride_h:   2
   stride_w:   2
   dilation_h: 1
   dilation_w: 1
   height_col: (height+2-4)/2+1
   width_col:  (width+2-4)/2+1
   launch:     grid=cdiv(channels*height*width,512) block=512
   flops:      4*channels*height*width
   tol:        1e-5
*/
template <typename Dtype>
__global__ void col2im_gpu_kernel(const int n, const Dtype* data_col,
    const int height, const int width, const int channels,
    const int kernel_h, const int kernel_w,
    const int pad_h, const int pad_w,
    const int stride_h, const int stride_w,
    const int dilation_h, const int dilation_w,
    const int height_col, const int width_col,
    Dtype* data_im) {
  CUDA_KERNEL_LOOP(index, n) {
    Dtype val = 0;
    const int w_im = index % width + pad_w;
    const int h_im = (index / width) % height + pad_h;
    const int c_im = index / (width * height);
    int kernel_extent_w = (kernel_w - 1) * dilation_w + 1;
    int kernel_extent_h = (kernel_h - 1) * dilation_h + 1;
    // compute the start and end of the output
    const int w_col_start =
        (w_im < kernel_extent_w) ? 0 : (w_im - kernel_extent_w) / stride_w + 1;
    const int w_col_end = min(w_im / stride_w + 1, width_col);
    const int h_col_start =
        (h_im < kernel_extent_h) ? 0 : (h_im - kernel_extent_h) / stride_h + 1;
    const int h_col_end = min(h_im / stride_h + 1, height_col);
    for (int h_col = h_col_start; h_col < h_col_end; h_col += 1) {
      for (int w_col = w_col_start; w_col < w_col_end; w_col += 1) {
        int h_k = (h_im - h_col * stride_h);
        int w_k = (w_im - w_col * stride_w);
        if (h_k % dilation_h == 0 && w_k % dilation_w == 0) {
          h_k /= dilation_h;
          w_k /= dilation_w;
          int data_col_index = (((c_im * kernel_h + h_k) * kernel_w + w_k) *
                                height_col + h_col) * width_col + w_col;
          val += data_col[data_col_index];
        }
      }
    }
    data_im[index] = val;
  }
}
