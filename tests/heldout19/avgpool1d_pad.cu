// out[n][c][o] = (1/4) * sum over k < 4 of x[n][c][2*o-1+k], taps outside the row counted as zeros: nn.AvgPool1d(kernel_size=4, stride=2, padding=1) (count_include_pad=True; KernelBench level 1, 44_Average_Pooling_1D), out length (input_length - 2) / 2 + 1; one thread per output, a 2-D grid with the (n, c) row on y.
#define KERNEL_SIZE 4
#define STRIDE 2
#define PADDING 1

/* @optiml
   sizes:  batch_size=64 in_channels=128 input_length=4096   # 2^25 floats: 128 MiB in, 64 MiB out
   check:  batch_size=1 in_channels=1 input_length=2; batch_size=1 in_channels=1 input_length=3; batch_size=2 in_channels=3 input_length=7; batch_size=3 in_channels=5 input_length=100; batch_size=1 in_channels=2 input_length=1001; batch_size=4 in_channels=1 input_length=33
   x:      in  float[batch_size*in_channels*input_length]
   out:    out float[batch_size*in_channels*((input_length-2)//2+1)]
   launch: grid=(cdiv((input_length-2)//2+1,256),batch_size*in_channels) block=256
   flops:  4*batch_size*in_channels*((input_length-2)//2+1)
*/
__global__ void avg_pool1d_kernel(const float* x, float* out, int batch_size, int in_channels, int input_length)
{
    int output_length = (input_length + 2 * PADDING - KERNEL_SIZE) / STRIDE + 1;
    int o = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y;
    if (o >= output_length || row >= batch_size * in_channels)
        return;

    int start = o * STRIDE - PADDING;
    float sum = 0.0f;
    for (int k = 0; k < KERNEL_SIZE; ++k) {
        int pos = start + k;
        if (pos >= 0 && pos < input_length)
            sum += x[(long)row * input_length + pos];
    }
    out[(long)row * output_length + o] = sum / KERNEL_SIZE;
}
