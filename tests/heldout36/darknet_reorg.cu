// out[b][k][j][i] = x'[b][k % (c/4)][2 j + (k / (c/4)) / 2][2 i + (k / (c/4)) % 2], where x' is the [batch, c, h, w] input read as [batch, c/4, 2 h, 2 w]: Darknet's `[reorg] stride=2` layer (YOLOv2's passthrough from the 26 x 26 x 64 map to 13 x 13 x 256, `forward_reorg_layer_gpu` -> `reorg_gpu(..., forward=0, ...)`, Darknet's own index mapping, not a plain space-to-depth) on [64, 64, 26, 26]; Darknet's `reorg_kernel` as written: `int N` first, non-const `float *x`, the 2-D grid index `(blockIdx.x + blockIdx.y*gridDim.x) * blockDim.x + threadIdx.x` (grid split past 65535 blocks of 512), `i = i/w` peeling of the coordinates, `out_c = c/(stride*stride)` in the kernel, and the `if(forward) ... else ...` on an int argument (0 here).

/* @optiml
   sizes:   batch=64 c=64 h=26 w=26   # x 10.56 MiB in, out 10.56 MiB out; a permutation, no flops
   check:   batch=1 c=4 h=1 w=1; batch=1 c=4 h=3 w=5; batch=2 c=8 h=7 w=7; batch=3 c=12 h=13 w=9; batch=1 c=64 h=26 w=26; batch=2 c=20 h=11 w=30
   x:       in  float[batch*c*h*w]
   out:     out float[batch*c*h*w]
   N:       batch*c*h*w
   stride:  2
   forward: 0
   launch:  grid=(min(cdiv(batch*c*h*w,512),65535),cdiv(cdiv(batch*c*h*w,512),65535)) block=512
   tol:     1e-6
*/
__global__ void reorg_kernel(int N, float *x, int w, int h, int c, int batch, int stride, int forward, float *out)
{
    int i = (blockIdx.x + blockIdx.y*gridDim.x) * blockDim.x + threadIdx.x;
    if(i >= N) return;
    int in_index = i;
    int in_w = i%w;
    i = i/w;
    int in_h = i%h;
    i = i/h;
    int in_c = i%c;
    i = i/c;
    int b = i%batch;

    int out_c = c/(stride*stride);

    int c2 = in_c % out_c;
    int offset = in_c / out_c;
    int w2 = in_w*stride + offset % stride;
    int h2 = in_h*stride + offset / stride;
    int out_index = w2 + w*stride*(h2 + h*stride*(c2 + out_c*b));

    if(forward) out[out_index] = x[in_index];
    else out[in_index] = x[out_index];
}
