// crops[b][y][x][d] = bilinear sample of image[box_ind[b]][.][.][d] at in_y = y1 (H - 1) + y (y2 - y1) (H - 1) / (crop_height - 1), in_x likewise (the box centre when the crop is 1 wide), extrapolation_value where the point leaves [0, H - 1] x [0, W - 1]: `tf.image.crop_and_resize(features, boxes, box_ind, [7, 7])` (TensorFlow's CropAndResize op, the ROI crop of Matterport's Mask R-CNN `PyramidROIAlign`, here 2000 boxes on one FPN level) on an fp16 NHWC map [2, 256, 256, 256] with normalized (y1, x1, y2, x2) boxes `uniform(-0.1,1.1)` (some flipped, some past the edge) and int32 box indices; written after TensorFlow's `CropAndResizeKernel`: `template <typename T>` on the image type (`template: T=__half`, read through `static_cast<float>`), `__restrict__` pointers, TF's 1-D loop macro over `out_idx` with the grid of `GetGpuLaunchConfig` (at most one 1024-thread block a multiprocessor, 132 on an H100), the `d, x, y, b` decode by `%` and `/=`, `continue` for a box index outside the batch and after writing the extrapolation value, ternaries for the 1-wide crop with a `0.5` double literal, `floorf` / `ceilf` corners and two lerps.
#include <cuda_fp16.h>

#define CUDA_1D_KERNEL_LOOP(i, n) \
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += blockDim.x * gridDim.x)

/* @optiml
   template: T=__half
   sizes:    batch=2 image_height=256 image_width=256 depth=256 num_boxes=2000 crop_height=7 crop_width=7   # image 64 MiB in, boxes 31 KiB in, box_ind 8 KiB in, crops 95.7 MiB out; 0.25 GFLOP
   check:    batch=2 image_height=1 image_width=1 depth=1 num_boxes=1 crop_height=1 crop_width=1; batch=2 image_height=5 image_width=7 depth=3 num_boxes=4 crop_height=2 crop_width=3; batch=3 image_height=16 image_width=9 depth=17 num_boxes=10 crop_height=7 crop_width=7; batch=2 image_height=33 image_width=40 depth=8 num_boxes=30 crop_height=1 crop_width=5; batch=2 image_height=20 image_width=1 depth=4 num_boxes=9 crop_height=14 crop_width=14; batch=4 image_height=12 image_width=13 depth=600 num_boxes=5 crop_height=7 crop_width=7
   image_ptr:           in  __half[batch*image_height*image_width*depth]
   boxes_ptr:           in  float[num_boxes*4] uniform(-0.1,1.1)
   box_ind_ptr:         in  int[num_boxes] range(0,2)
   crops_ptr:           out float[num_boxes*crop_height*crop_width*depth]
   nthreads:            num_boxes*crop_height*crop_width*depth
   extrapolation_value: 0.0
   launch:   grid=min(cdiv(num_boxes*crop_height*crop_width*depth,1024),132) block=1024
   flops:    10*num_boxes*crop_height*crop_width*depth
   tol:      1e-5
*/
template <typename T>
__global__ void CropAndResizeKernel(const int nthreads, const T* __restrict__ image_ptr,
                                    const float* __restrict__ boxes_ptr, const int* __restrict__ box_ind_ptr,
                                    int num_boxes, int batch, int image_height, int image_width,
                                    int crop_height, int crop_width, int depth, float extrapolation_value,
                                    float* __restrict__ crops_ptr)
{
  CUDA_1D_KERNEL_LOOP(out_idx, nthreads) {
    // out_idx = d + depth * (w + crop_width * (h + crop_height * b))
    int idx = out_idx;
    const int d = idx % depth;
    idx /= depth;
    const int x = idx % crop_width;
    idx /= crop_width;
    const int y = idx % crop_height;
    const int b = idx / crop_height;

    const float y1 = boxes_ptr[b * 4];
    const float x1 = boxes_ptr[b * 4 + 1];
    const float y2 = boxes_ptr[b * 4 + 2];
    const float x2 = boxes_ptr[b * 4 + 3];

    const int b_in = box_ind_ptr[b];
    if (b_in < 0 || b_in >= batch) {
      continue;
    }

    const float height_scale =
        (crop_height > 1) ? (y2 - y1) * (image_height - 1) / (crop_height - 1) : 0;
    const float width_scale =
        (crop_width > 1) ? (x2 - x1) * (image_width - 1) / (crop_width - 1) : 0;

    const float in_y = (crop_height > 1)
                           ? y1 * (image_height - 1) + y * height_scale
                           : 0.5 * (y1 + y2) * (image_height - 1);
    if (in_y < 0 || in_y > image_height - 1) {
      crops_ptr[out_idx] = extrapolation_value;
      continue;
    }

    const float in_x = (crop_width > 1)
                           ? x1 * (image_width - 1) + x * width_scale
                           : 0.5 * (x1 + x2) * (image_width - 1);
    if (in_x < 0 || in_x > image_width - 1) {
      crops_ptr[out_idx] = extrapolation_value;
      continue;
    }

    const int top_y_index = floorf(in_y);
    const int bottom_y_index = ceilf(in_y);
    const float y_lerp = in_y - top_y_index;

    const int left_x_index = floorf(in_x);
    const int right_x_index = ceilf(in_x);
    const float x_lerp = in_x - left_x_index;

    const float top_left = static_cast<float>(
        image_ptr[((b_in * image_height + top_y_index) * image_width + left_x_index) * depth + d]);
    const float top_right = static_cast<float>(
        image_ptr[((b_in * image_height + top_y_index) * image_width + right_x_index) * depth + d]);
    const float bottom_left = static_cast<float>(
        image_ptr[((b_in * image_height + bottom_y_index) * image_width + left_x_index) * depth + d]);
    const float bottom_right = static_cast<float>(
        image_ptr[((b_in * image_height + bottom_y_index) * image_width + right_x_index) * depth + d]);

    const float top = top_left + (top_right - top_left) * x_lerp;
    const float bottom = bottom_left + (bottom_right - bottom_left) * x_lerp;
    crops_ptr[out_idx] = top + (bottom - top) * y_lerp;
  }
}
