// out[n] = mean_{c,y,x} softplus(conv2d(x, weight, bias, padding=1)[n, c, y, x]): a KernelBench level-2-style module (`x = self.conv(x); x = F.softplus(x); x = x.mean(dim=(1, 2, 3))`) with nn.Conv2d(16, 64, 3, padding=1) on a [64, 16, 128, 128] batch -> [64], fp32; written naively: one thread per convolution output on a 3-D grid (the output plane flattened on x in blocks of 256, blockIdx.y = output channel, blockIdx.z = sample), the pixel split by / and %, early return, the 3 x 3 window with a bounds test for the zero padding, PyTorch's softplus threshold (20), and one `atomicAdd` of each softplus divided by C*H*W into the zero-initialised per-sample mean; `#define K` / `PAD`, `int` offsets; x `normal(0,1)`, weight and bias `uniform(-0.0833,0.0833)` (nn.Conv2d's bound 1/sqrt(16*9)).

#define K 3
#define PAD 1

/* @optiml
   sizes:  batch=64 in_ch=16 out_ch=64 height=128 width=128   # x 64 MiB, weight 36 KiB, bias 256 B in, out 256 B in and out; 19.7 GFLOP
   check:  batch=1 in_ch=1 out_ch=1 height=1 width=1; batch=2 in_ch=3 out_ch=5 height=7 width=9; batch=3 in_ch=2 out_ch=4 height=17 width=19; batch=1 in_ch=16 out_ch=64 height=12 width=12; batch=2 in_ch=4 out_ch=3 height=1 width=300; batch=5 in_ch=1 out_ch=2 height=16 width=16; batch=4 in_ch=2 out_ch=2 height=33 width=1
   x:      in    float[batch*in_ch*height*width] normal(0,1)
   weight: in    float[out_ch*in_ch*9] uniform(-0.0833,0.0833)
   bias:   in    float[out_ch] uniform(-0.0833,0.0833)
   out:    inout float[batch] const(0)
   launch: grid=(cdiv(height*width,256),out_ch,batch) block=256
   flops:  18*batch*out_ch*height*width*in_ch + 5*batch*out_ch*height*width
   tol:    1e-4
*/
__global__ void conv2d_softplus_mean(const float* x, const float* weight, const float* bias, float* out,
                                     int batch, int in_ch, int out_ch, int height, int width)
{
    int pix = blockIdx.x * blockDim.x + threadIdx.x;
    int oc = blockIdx.y;
    int n = blockIdx.z;
    if (pix >= height * width)
        return;
    int oy = pix / width;
    int ox = pix % width;

    float acc = bias[oc];
    for (int ic = 0; ic < in_ch; ic++) {
        for (int ky = 0; ky < K; ky++) {
            for (int kx = 0; kx < K; kx++) {
                int iy = oy + ky - PAD;
                int ix = ox + kx - PAD;
                if (iy >= 0 && iy < height && ix >= 0 && ix < width) {
                    acc += x[((n * in_ch + ic) * height + iy) * width + ix] *
                           weight[((oc * in_ch + ic) * K + ky) * K + kx];
                }
            }
        }
    }

    // softplus(beta=1, threshold=20) like PyTorch
    float sp = acc > 20.0f ? acc : log1pf(expf(acc));
    atomicAdd(&out[n], sp / (float)(out_ch * height * width));
}
