// out[n][c][od][oh][ow] = max over kd, kh, kw < 3 of x[n][c][2*od-1+3*kd][2*oh-1+3*kh][2*ow-1+3*kw] over the in-volume taps: nn.MaxPool3d(kernel_size=3, stride=2, padding=1, dilation=3) (KernelBench level 1, 43_Max_Pooling_3D) over an NCDHW tensor, out size (d - 5) / 2 + 1 per axis; one thread per output, the flat index decoded with / and %.
#include <cfloat>

#define KERNEL_SIZE 3
#define STRIDE 2
#define PADDING 1
#define DILATION 3

/* @optiml
   sizes:    batch_size=8 channels=32 dim1=64 dim2=64 dim3=64   # 2^26 floats: 256 MiB in, 26.4 MiB out
   check:    batch_size=1 channels=1 dim1=5 dim2=5 dim3=5; batch_size=1 channels=2 dim1=6 dim2=7 dim3=8; batch_size=2 channels=3 dim1=9 dim2=5 dim3=12; batch_size=1 channels=1 dim1=17 dim2=10 dim3=33; batch_size=3 channels=2 dim1=5 dim2=20 dim3=6
   x:        in  float[batch_size*channels*dim1*dim2*dim3]
   out:      out float[batch_size*channels*((dim1-5)//2+1)*((dim2-5)//2+1)*((dim3-5)//2+1)]
   out_d:    (dim1-5)//2+1
   out_h:    (dim2-5)//2+1
   out_w:    (dim3-5)//2+1
   launch:   grid=cdiv(batch_size*channels*((dim1-5)//2+1)*((dim2-5)//2+1)*((dim3-5)//2+1),256) block=256
   flops:    27*batch_size*channels*((dim1-5)//2+1)*((dim2-5)//2+1)*((dim3-5)//2+1)
*/
__global__ void maxpool3d_kernel(const float* x, float* out, int batch_size, int channels, int dim1, int dim2, int dim3,
                                 int out_d, int out_h, int out_w)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int total = batch_size * channels * out_d * out_h * out_w;
    if (idx >= total) return;

    int ow = idx % out_w;
    int oh = (idx / out_w) % out_h;
    int od = (idx / (out_w * out_h)) % out_d;
    int nc = idx / (out_w * out_h * out_d);

    const float* in = x + (long)nc * dim1 * dim2 * dim3;
    float max_val = -FLT_MAX;
    for (int kd = 0; kd < KERNEL_SIZE; kd++) {
        int d = od * STRIDE - PADDING + kd * DILATION;
        if (d < 0 || d >= dim1) continue;
        for (int kh = 0; kh < KERNEL_SIZE; kh++) {
            int h = oh * STRIDE - PADDING + kh * DILATION;
            if (h < 0 || h >= dim2) continue;
            for (int kw = 0; kw < KERNEL_SIZE; kw++) {
                int w = ow * STRIDE - PADDING + kw * DILATION;
                if (w < 0 || w >= dim3) continue;
                float v = in[((long)d * dim2 + h) * dim3 + w];
                if (v > max_val) max_val = v;
            }
        }
    }
    out[idx] = max_val;
}
