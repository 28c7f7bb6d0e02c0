// output[b][c][i][j] = sum_{u < k_h, v < k_w} input[b][c][i + u][j + v] * kernel[b][c][u][v] (valid, each sample with its own template): pysot's `xcorr_depthwise(x, kernel)` (SiamRPN++'s depthwise cross-correlation of search features with template features, `F.conv2d(x.view(1, B*C, H, W), kernel.view(B*C, 1, kh, kw), groups=B*C)`) on fp16 [64, 256, 31, 31] search and [64, 256, 7, 7] template features -> [64, 256, 25, 25]; in PyTorch's legacy THC / ATen style: `template <typename scalar_t, typename accscalar_t>` (`template: scalar_t=__half accscalar_t=float`), `<cuda_fp16.h>` and `<cstdint>`, `CUDA_1D_KERNEL_LOOP(index, n)` defined in the file as an `int64_t` grid-stride loop with Caffe2's `CAFFE_GET_BLOCKS` grid (128 threads, at most 4096 blocks: about 20 outputs a thread at the benchmark size), the output extents computed in the kernel, plane pointers `in_p` / `k_p`, two nested tap loops accumulating `static_cast<accscalar_t>` products, one `static_cast<scalar_t>` store.
#include <cuda_fp16.h>
#include <cstdint>

#define CUDA_1D_KERNEL_LOOP(i, n) \
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < (n); i += (int64_t)blockDim.x * gridDim.x)

/* @optiml
   template: scalar_t=__half accscalar_t=float
   sizes:    batch=64 channels=256 in_h=31 in_w=31 k_h=7 k_w=7   # input 30 MiB in, kernel 1.5 MiB in, output 19.5 MiB out; 1.0 GFLOP
   check:    batch=1 channels=1 in_h=1 in_w=1 k_h=1 k_w=1; batch=2 channels=3 in_h=5 in_w=6 k_h=3 k_w=2; batch=1 channels=5 in_h=31 in_w=31 k_h=7 k_w=7; batch=3 channels=2 in_h=9 in_w=17 k_h=9 k_w=1; batch=2 channels=4 in_h=22 in_w=22 k_h=6 k_w=6; batch=4 channels=256 in_h=31 in_w=31 k_h=7 k_w=7
   input:    in  __half[batch*channels*in_h*in_w]
   kernel:   in  __half[batch*channels*k_h*k_w]
   output:   out __half[batch*channels*(in_h-k_h+1)*(in_w-k_w+1)]
   n:        batch*channels*(in_h-k_h+1)*(in_w-k_w+1)
   launch:   grid=min(cdiv(batch*channels*(in_h-k_h+1)*(in_w-k_w+1),128),4096) block=128
   flops:    2*batch*channels*(in_h-k_h+1)*(in_w-k_w+1)*k_h*k_w
   tol:      1e-3
*/
template <typename scalar_t, typename accscalar_t>
__global__ void xcorr_depthwise_kernel(const int64_t n, const scalar_t* input, const scalar_t* kernel,
                                       scalar_t* output, const int in_h, const int in_w,
                                       const int k_h, const int k_w)
{
  const int out_h = in_h - k_h + 1;
  const int out_w = in_w - k_w + 1;
  CUDA_1D_KERNEL_LOOP(index, n) {
    const int ow = index % out_w;
    const int oh = (index / out_w) % out_h;
    const int64_t plane = index / (out_w * out_h);
    const scalar_t* in_p = input + plane * in_h * in_w;
    const scalar_t* k_p = kernel + plane * k_h * k_w;
    accscalar_t sum = 0;
    for (int u = 0; u < k_h; ++u) {
      for (int v = 0; v < k_w; ++v) {
        sum += static_cast<accscalar_t>(in_p[(oh + u) * in_w + ow + v]) *
               static_cast<accscalar_t>(k_p[u * k_w + v]);
      }
    }
    output[index] = static_cast<scalar_t>(sum);
  }
}
