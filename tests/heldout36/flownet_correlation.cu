// top[n][(dy / 2 + 10) * 21 + (dx / 2 + 10)][y][x] = (1 / C) sum_c bottom0[n][c][y][x] * bottom1[n][c][y + dy][x + dx] for dy, dx in {-20, -18, ..., 20}, 0 where the displaced point leaves the map (zero padding): the correlation layer of FlowNetC (Caffe `Correlation` with pad 20, kernel_size 1, max_displacement 20, stride_1 1, stride_2 2: 441 output channels) on two [8, 256, 48, 64] conv3 feature maps of a 384 x 512 image pair; a naive one-output-a-thread form of the Caffe layer: `template <typename Dtype>` (`template: Dtype=float`), Caffe's `CUDA_KERNEL_LOOP(index, nthreads)` macro defined in the file and 512-thread `CAFFE_GET_BLOCKS` blocks, FlowNet's argument names (`topchannels`, `neighborhood_grid_radius`, `neighborhood_grid_width`, `stride2`, `bottomchannels`), the displacement decoded from the top channel by `%` and `/` on the grid width, `const int` locals, an `if` that skips the channel loop for a point off the map, `Dtype sum = 0` and a division by `bottomchannels` (FlowNet's `sumelems` at kernel_size 1).

#define CUDA_KERNEL_LOOP(i, n) \
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; \
       i < (n); \
       i += blockDim.x * gridDim.x)

/* @optiml
   template: Dtype=float
   sizes:    num=8 channels=256 height=48 width=64   # bottom0, bottom1 24 MiB in each, top 41.3 MiB out; 5.55 GFLOP
   check:    num=1 channels=1 height=1 width=1; num=1 channels=3 height=5 width=7; num=2 channels=4 height=24 width=30; num=1 channels=16 height=23 width=41; num=1 channels=64 height=7 width=9; num=2 channels=2 height=45 width=3
   bottom0:                  in  float[num*channels*height*width]
   bottom1:                  in  float[num*channels*height*width]
   top:                      out float[num*441*height*width]
   nthreads:                 num*441*height*width
   topchannels:              441
   bottomchannels:           channels
   neighborhood_grid_radius: 10
   neighborhood_grid_width:  21
   stride2:                  2
   launch:   grid=cdiv(num*441*height*width,512) block=512
   flops:    2*num*441*height*width*channels
   tol:      1e-5
*/
template <typename Dtype>
__global__ void CorrelationForward(const int nthreads, const Dtype* bottom0, const Dtype* bottom1, Dtype* top,
    const int topchannels, const int neighborhood_grid_radius,
    const int neighborhood_grid_width, const int stride2,
    const int bottomchannels, const int height, const int width) {
  CUDA_KERNEL_LOOP(index, nthreads) {
    const int x = index % width;
    const int y = (index / width) % height;
    const int tc = (index / width / height) % topchannels;
    const int n = index / width / height / topchannels;

    const int s2o = (tc % neighborhood_grid_width - neighborhood_grid_radius) * stride2;
    const int s2p = (tc / neighborhood_grid_width - neighborhood_grid_radius) * stride2;
    const int x2 = x + s2o;
    const int y2 = y + s2p;

    Dtype sum = 0;
    if (x2 >= 0 && x2 < width && y2 >= 0 && y2 < height) {
      for (int c = 0; c < bottomchannels; ++c) {
        const int idx1 = ((n * bottomchannels + c) * height + y) * width + x;
        const int idx2 = ((n * bottomchannels + c) * height + y2) * width + x2;
        sum += bottom0[idx1] * bottom1[idx2];
      }
    }
    top[index] = sum / bottomchannels;
  }
}
