// loss = sum_{i, a : labels[i, a] == 1} sum_k smooth_l1_beta(pred[i, a, k] - target[i, a, k]) / (num_images * 256): the box-regression term of a region proposal network's loss over the positive anchors (torchvision's `F.smooth_l1_loss(pred[pos], target[pos], beta=1/9, reduction="sum")`, normalised as Detectron2 normalises, by images x 256 sampled anchors), 16 images x 267069 anchors (an FPN P2-P6 pyramid, 3 anchors a position, at 800 x 1333), fp32 deltas [N, A, 4], int64 labels (1 positive, 0 negative, -1 ignored); written naively: one thread per anchor on a 2-D grid (anchors in blocks of 256 on x, blockIdx.y = image), an `if (a < num_anchors)` block, the label test, the four coordinates' two-branch smooth L1 summed in a plain loop, and one `atomicAdd` of the anchor's sum divided by the normaliser into the zero-initialised scalar; `long` anchor offset; deltas `normal(0,0.1)` (about half of the differences fall in the quadratic branch), labels `range(-1,2)`.

/* @optiml
   sizes:         num_images=16 num_anchors=267069   # pred and target 65.2 MiB each, labels 32.6 MiB in, loss 4 B in and out; 0.1 GFLOP
   check:         num_images=1 num_anchors=1; num_images=2 num_anchors=3; num_images=1 num_anchors=64; num_images=3 num_anchors=100; num_images=2 num_anchors=1000; num_images=4 num_anchors=33; num_images=1 num_anchors=4097; num_images=5 num_anchors=257
   pred_deltas:   in    float[num_images*num_anchors*4] normal(0,0.1)
   target_deltas: in    float[num_images*num_anchors*4] normal(0,0.1)
   labels:        in    long long[num_images*num_anchors] range(-1,2)
   loss:          inout float[1] const(0)
   beta:          0.1111111111111111
   batch_size_per_image: 256
   launch:        grid=(cdiv(num_anchors,256),num_images) block=256
   flops:         24*num_images*num_anchors
   tol:           1e-4
   atol:          1e-6
*/
__global__ void rpn_box_smooth_l1(const float* pred_deltas, const float* target_deltas, const long long* labels,
                                  float* loss, float beta, int batch_size_per_image, int num_images, int num_anchors)
{
    int a = blockIdx.x * blockDim.x + threadIdx.x;
    int image = blockIdx.y;

    if (a < num_anchors) {
        long anchor = (long)image * num_anchors + a;
        if (labels[anchor] == 1) {
            float sum = 0.0f;
            for (int k = 0; k < 4; k++) {
                float d = fabsf(pred_deltas[anchor * 4 + k] - target_deltas[anchor * 4 + k]);
                if (d < beta)
                    sum += 0.5f * d * d / beta;
                else
                    sum += d - 0.5f * beta;
            }
            atomicAdd(loss, sum / (num_images * batch_size_per_image));
        }
    }
}
