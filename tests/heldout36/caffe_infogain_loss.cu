// loss[n][s] = -sum_l H[label[n][s]][l] log(max(prob[n][l][s], 1e-20)) and counts[n][s] = 1, both 0 where the label is the ignore label: the per-position terms of Caffe's `InfogainLoss` layer (the loss is their sum over the count, VALID normalization; a dense random K x K infogain matrix H) for a 21-class PASCAL VOC segmentation net (DeepLab's 321 x 321 crops, batch 8, label 21 standing for the void label), written as Caffe writes its per-position loss kernels (`SoftmaxLossForwardGPU`): `template <typename Dtype>` (`template: Dtype=float`), Caffe's `CUDA_KERNEL_LOOP(index, nthreads)` macro defined in the file, `CAFFE_GET_BLOCKS` launch of 512-thread blocks, `n` and `s` from `index / spatial_dim` and `index % spatial_dim`, a `const bool has_ignore_label_` argument and an if / else on it, `log(max(..., Dtype(kLOG_THRESHOLD)))` with the threshold a `#define`, and the count written as a float (`Dtype* counts`); probabilities `uniform(-0.001,1)` so that about 0.1% hit the threshold (standing for the zeros of a saturated softmax), labels int32 `range(0,22)`.

#define CUDA_KERNEL_LOOP(i, n) \
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; \
       i < (n); \
       i += blockDim.x * gridDim.x)

#define kLOG_THRESHOLD 1e-20

/* @optiml
   template: Dtype=float
   sizes:    num=8 num_labels=21 height=321 width=321   # prob 66.04 MiB in, label 3.14 MiB in, H 1.7 KiB in, loss and counts 3.14 MiB out each; 52 MFLOP
   check:    num=1 num_labels=21 height=1 width=1; num=2 num_labels=21 height=3 width=5; num=1 num_labels=24 height=17 width=31; num=3 num_labels=21 height=20 width=20; num=2 num_labels=22 height=1 width=300; num=1 num_labels=30 height=41 width=41
   prob_data:         in  float[num*num_labels*height*width] uniform(-0.001,1)
   label:             in  int[num*height*width] range(0,22)
   infogain_mat:      in  float[num_labels*num_labels] uniform(0,1)
   loss:              out float[num*height*width]
   counts:            out float[num*height*width]
   nthreads:          num*height*width
   spatial_dim:       height*width
   has_ignore_label_: 1
   ignore_label_:     21
   launch:   grid=cdiv(num*height*width,512) block=512
   flops:    3*num*num_labels*height*width
   tol:      1e-5
*/
template <typename Dtype>
__global__ void InfogainLossForwardGPU(const int nthreads, const Dtype* prob_data, const int* label,
          const Dtype* infogain_mat, Dtype* loss, const int num_labels, const int spatial_dim,
          const bool has_ignore_label_, const int ignore_label_, Dtype* counts) {
  CUDA_KERNEL_LOOP(index, nthreads) {
    const int n = index / spatial_dim;
    const int s = index % spatial_dim;
    const int label_value = label[n * spatial_dim + s];
    if (has_ignore_label_ && label_value == ignore_label_) {
      loss[index] = 0;
      counts[index] = 0;
    } else {
      Dtype sum = 0;
      for (int l = 0; l < num_labels; ++l) {
        sum -= infogain_mat[label_value * num_labels + l] *
            log(max(prob_data[(n * num_labels + l) * spatial_dim + s], Dtype(kLOG_THRESHOLD)));
      }
      loss[index] = sum;
      counts[index] = 1;
    }
  }
}
