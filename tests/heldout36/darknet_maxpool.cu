// output[b][k][i][j] = max over l, m < size of input[b][k][i*stride - pad/2 + l][j*stride - pad/2 + m] (points off the map count as -INFINITY), indexes[b][k][i][j] = the flat input index of the first maximum, with out_h = (in_h + pad - size)/stride + 1: Darknet's `[maxpool] size=2 stride=1` (pad defaults to size - 1 = 1, all of it after the last row and column: the 13 x 13 -> 13 x 13 pool of YOLOv3-tiny and YOLOv2-tiny) on [64, 512, 13, 13]; Darknet's `forward_maxpool_layer_kernel` as written: `int n` and the layer's ints first, non-const `float *input`, an `int *indexes` output, the output extents computed in the kernel, the 2-D grid index `(blockIdx.x + blockIdx.y*gridDim.x) * blockDim.x + threadIdx.x` with an early `return`, `id /= w` peeling, `int l, m;` declared before the loops, `-INFINITY` from `<math.h>` and paired ternaries updating `max_i` and `max` with a strict `>`.
#include <math.h>

/* @optiml
   sizes:   batch=64 in_c=512 in_h=13 in_w=13   # input 21.1 MiB in, output 21.1 MiB out, indexes 21.1 MiB out; 22 MFLOP
   check:   batch=1 in_c=1 in_h=1 in_w=1; batch=1 in_c=2 in_h=2 in_w=3; batch=2 in_c=3 in_h=13 in_w=13; batch=1 in_c=5 in_h=26 in_w=7; batch=3 in_c=4 in_h=1 in_w=40; batch=1 in_c=16 in_h=9 in_w=10
   input:   in  float[batch*in_c*in_h*in_w]
   output:  out float[batch*in_c*((in_h+1-2)/1+1)*((in_w+1-2)/1+1)]
   indexes: out int[batch*in_c*((in_h+1-2)/1+1)*((in_w+1-2)/1+1)]
   n:       batch*in_c*((in_h+1-2)/1+1)*((in_w+1-2)/1+1)
   stride:  1
   size:    2
   pad:     1
   launch:  grid=(min(cdiv(batch*in_c*in_h*in_w,512),65535),cdiv(cdiv(batch*in_c*in_h*in_w,512),65535)) block=512
   flops:   4*batch*in_c*in_h*in_w
   tol:     1e-6
*/
__global__ void forward_maxpool_layer_kernel(int n, int in_h, int in_w, int in_c, int stride, int size, int pad, float *input, float *output, int *indexes)
{
    int h = (in_h + pad - size)/stride + 1;
    int w = (in_w + pad - size)/stride + 1;
    int c = in_c;

    int id = (blockIdx.x + blockIdx.y*gridDim.x) * blockDim.x + threadIdx.x;
    if(id >= n) return;

    int j = id % w;
    id /= w;
    int i = id % h;
    id /= h;
    int k = id % c;
    id /= c;
    int b = id;

    int w_offset = -pad/2;
    int h_offset = -pad/2;

    int out_index = j + w*(i + h*(k + c*b));
    float max = -INFINITY;
    int max_i = -1;
    int l, m;
    for(l = 0; l < size; ++l){
        for(m = 0; m < size; ++m){
            int cur_h = h_offset + i*stride + l;
            int cur_w = w_offset + j*stride + m;
            int index = cur_w + in_w*(cur_h + in_h*(k + b*in_c));
            int valid = (cur_h >= 0 && cur_h < in_h &&
                         cur_w >= 0 && cur_w < in_w);
            float val = (valid != 0) ? input[index] : -INFINITY;
            max_i = (val > max) ? index : max_i;
            max   = (val > max) ? val   : max;
        }
    }
    output[out_index] = max;
    indexes[out_index] = max_i;
}
