// out[b][k][j*sample][i*sample] = s1 * out[b][k][j*sample][i*sample] + s2 * add[b][k][j*stride][i*stride] over the common extent (min of the two layers' w, h, c), stride = max(w1 / w2, 1), sample = max(w2 / w1, 1): Darknet's `[shortcut]` layer (the residual add of YOLOv3's Darknet-53, `forward_shortcut_layer_gpu` -> `shortcut_gpu`, alpha 0.5 and beta 2.0 here instead of the cfg defaults of 1 so that both scales show) on two [16, 256, 52, 52] maps; Darknet's `shortcut_kernel` as written: int sizes first, non-const `float *add` and `float *out`, the flat id from a 2-D grid `(blockIdx.x + blockIdx.y*gridDim.x) * blockDim.x + threadIdx.x` (`cuda_gridsize` splits the grid past 65535 blocks of 512), decoded by `%` and `/=` into (i, j, k, b), early `return`.

/* @optiml
   sizes:   batch=16 w1=52 h1=52 c1=256 w2=52 h2=52 c2=256   # add 42.25 MiB in, out 42.25 MiB in and out (inout); 33 MFLOP
   check:   batch=1 w1=1 h1=1 c1=1 w2=1 h2=1 c2=1; batch=2 w1=7 h1=5 c1=3 w2=7 h2=5 c2=3; batch=1 w1=26 h1=26 c1=5 w2=13 h2=13 c2=5; batch=2 w1=13 h1=9 c1=4 w2=26 h2=18 c2=6; batch=3 w1=33 h1=17 c1=9 w2=33 h2=17 c2=4; batch=1 w1=27 h1=41 c1=3 w2=13 h2=20 c2=8
   add:     in    float[batch*c1*h1*w1]
   out:     inout float[batch*c2*h2*w2]
   size:    batch*min(w1,w2)*min(h1,h2)*min(c1,c2)
   minw:    min(w1,w2)
   minh:    min(h1,h2)
   minc:    min(c1,c2)
   stride:  max(w1/w2,1)
   sample:  max(w2/w1,1)
   s1:      0.5
   s2:      2.0
   launch:  grid=(min(cdiv(batch*min(w1,w2)*min(h1,h2)*min(c1,c2),512),65535),cdiv(cdiv(batch*min(w1,w2)*min(h1,h2)*min(c1,c2),512),65535)) block=512
   flops:   3*batch*min(w1,w2)*min(h1,h2)*min(c1,c2)
   tol:     1e-6
*/
__global__ void shortcut_kernel(int size, int minw, int minh, int minc, int stride, int sample, int batch, int w1, int h1, int c1, float *add, int w2, int h2, int c2, float s1, float s2, float *out)
{
    int id = (blockIdx.x + blockIdx.y*gridDim.x) * blockDim.x + threadIdx.x;
    if (id >= size) return;
    int i = id % minw;
    id /= minw;
    int j = id % minh;
    id /= minh;
    int k = id % minc;
    id /= minc;
    int b = id % batch;

    int out_index = i*sample + w2*(j*sample + h2*(k + c2*b));
    int add_index = i*stride + w1*(j*stride + h1*(k + c1*b));
    out[out_index] = s1*out[out_index] + s2*add[add_index];
}
