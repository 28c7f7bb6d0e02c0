// y[n][c][h][w] = (x[n][c][h][w] - mean[c]) / sqrt(var[c] + eps) * weight[c] + bias[c], mean and biased var of channel c over N, H and W: BatchNorm2d in training mode, normalizing with the batch statistics (nn.BatchNorm2d(num_features) in train(), KernelBench level 1, 33_BatchNorm; the running-stat update is not part of the output); one thread per channel, three passes over the channel.
/* @optiml
   sizes:  batch_size=16 num_features=64 dim1=128 dim2=128   # 2^24 floats: 64 MiB in, 64 MiB out
   check:  batch_size=1 num_features=1 dim1=1 dim2=2; batch_size=2 num_features=3 dim1=5 dim2=7; batch_size=4 num_features=2 dim1=17 dim2=9; batch_size=1 num_features=70 dim1=3 dim2=3; batch_size=3 num_features=5 dim1=1 dim2=1
   x:      in  float[batch_size*num_features*dim1*dim2]
   weight: in  float[num_features]
   bias:   in  float[num_features]
   y:      out float[batch_size*num_features*dim1*dim2]
   eps:    1e-5
   launch: grid=cdiv(num_features,32) block=32
   flops:  9*batch_size*num_features*dim1*dim2
   tol:    1e-4
*/
__global__ void batch_norm_train(const float* x, const float* weight, const float* bias, float* y, float eps,
                                 int batch_size, int num_features, int dim1, int dim2)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= num_features) return;

    int HW = dim1 * dim2;
    int count = batch_size * HW;

    float sum = 0.0f;
    for (int n = 0; n < batch_size; ++n)
        for (int i = 0; i < HW; ++i)
            sum += x[((long)n * num_features + c) * HW + i];
    float mean = sum / count;

    float sq = 0.0f;
    for (int n = 0; n < batch_size; ++n)
        for (int i = 0; i < HW; ++i) {
            float d = x[((long)n * num_features + c) * HW + i] - mean;
            sq += d * d;
        }
    float var = sq / count;   // biased, as the forward normalizes with

    float scale = weight[c] / sqrtf(var + eps);
    for (int n = 0; n < batch_size; ++n)
        for (int i = 0; i < HW; ++i) {
            long idx = ((long)n * num_features + c) * HW + i;
            y[idx] = (x[idx] - mean) * scale + bias[c];
        }
}
