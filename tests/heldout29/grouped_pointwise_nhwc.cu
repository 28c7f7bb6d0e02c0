// y[n][h][w][co] = sum over the C/GROUPS input channels ci of co's group of w[co][ci % (C/GROUPS)] * x[n][h][w][ci]: ShuffleNet v1's grouped 1 x 1 convolution, `nn.Conv2d(240, 240, kernel_size=1, groups=3, bias=False)`, run channels-last (`memory_format=torch.channels_last`: activations NHWC, the 1 x 1 weight [Cout][C/GROUPS]) on a batch of 32 at 28 x 28, fp32; one thread per output on a 2-D grid (output channels on x, blockIdx.y the pixel n*H*W + h*W + w), the group count a non-type template parameter with an explicit instantiation, early return, a contiguous run of C/GROUPS input channels per output.

/* @optiml
   sizes:   NHW=25088 C=240   # N=32 H=W=28; x 23 MiB in, y 23 MiB out, weight 75 KiB in; 0.96 GFLOP
   check:   NHW=1 C=3; NHW=7 C=6; NHW=5 C=75; NHW=33 C=9; NHW=2 C=69; NHW=13 C=3
   template: GROUPS=3
   x:       in  float[NHW*C]
   weight:  in  float[C*(C//GROUPS)]
   y:       out float[NHW*C]
   launch:  grid=(cdiv(C,64),NHW) block=64
   flops:   2*NHW*C*(C//GROUPS)
   tol:     1e-4
*/
template <int GROUPS>
__global__ void grouped_pointwise_nhwc(const float* __restrict__ x, const float* __restrict__ weight,
                                       float* __restrict__ y, int NHW, int C)
{
    const int co = blockIdx.x * blockDim.x + threadIdx.x;
    const int pix = blockIdx.y;
    if (co >= C || pix >= NHW) return;

    const int cpg = C / GROUPS;                 // channels per group, in and out
    const int g = co / cpg;
    const float* xp = x + (size_t)pix * C + g * cpg;
    const float* wp = weight + (size_t)co * cpg;
    float s = 0.0f;
    for (int i = 0; i < cpg; ++i)
        s += xp[i] * wp[i];
    y[(size_t)pix * C + co] = s;
}

template __global__ void grouped_pointwise_nhwc<3>(const float* __restrict__, const float* __restrict__,
                                                   float* __restrict__, int, int);
