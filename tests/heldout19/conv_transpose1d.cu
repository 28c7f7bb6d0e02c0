// out[n][co][o] = sum over ci and k < 3 with o = 2*i - 1 + k, 0 <= i < length, of x[n][ci][i] * weight[ci][co][k]: a transposed 1-D convolution (nn.ConvTranspose1d(in_channels, out_channels, 3, stride=2, padding=1, bias=False), KernelBench level 1, 64_conv_transposed_1D with a stride), out length 2*length - 1; one thread per output gathering its taps, a 2-D grid with the (n, co) row on y.
#define KERNEL_SIZE 3
#define STRIDE 2
#define PADDING 1

/* @optiml
   sizes:  batch_size=16 in_channels=64 out_channels=64 length=16384   # x 64 MiB in, out 128 MiB, weight 48 KiB
   check:  batch_size=1 in_channels=1 out_channels=1 length=1; batch_size=1 in_channels=2 out_channels=3 length=2; batch_size=2 in_channels=3 out_channels=5 length=7; batch_size=1 in_channels=16 out_channels=4 length=100; batch_size=3 in_channels=1 out_channels=2 length=300; batch_size=2 in_channels=5 out_channels=1 length=33
   x:      in  float[batch_size*in_channels*length]
   weight: in  float[in_channels*out_channels*3]
   out:    out float[batch_size*out_channels*(2*length-1)]
   launch: grid=(cdiv(2*length-1,128),batch_size*out_channels) block=128
   flops:  6*batch_size*in_channels*out_channels*length
   tol:    1e-4
*/
__global__ void conv_transpose1d_kernel(const float* __restrict__ x, const float* __restrict__ weight,
                                        float* __restrict__ out, int batch_size, int in_channels,
                                        int out_channels, int length)
{
    int out_length = (length - 1) * STRIDE - 2 * PADDING + KERNEL_SIZE;
    int o = blockIdx.x * blockDim.x + threadIdx.x;
    int n = blockIdx.y / out_channels;
    int co = blockIdx.y % out_channels;
    if (o >= out_length || n >= batch_size)
        return;

    float sum = 0.0f;
    for (int ci = 0; ci < in_channels; ++ci) {
        for (int k = 0; k < KERNEL_SIZE; ++k) {
            int t = o + PADDING - k;
            if (t % STRIDE != 0) continue;
            int i = t / STRIDE;
            if (i < 0 || i >= length) continue;
            sum += x[((long)n * in_channels + ci) * length + i] * weight[(ci * out_channels + co) * KERNEL_SIZE + k];
        }
    }
    out[((long)n * out_channels + co) * out_length + o] = sum;
}
