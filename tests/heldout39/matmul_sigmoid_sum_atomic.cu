// out[b] = sum_h sigmoid(bias[h] + sum_i x[b][i] * weight[h][i]): KernelBench level 2's Matmul_Sigmoid_Sum (`x = self.linear(x); x = torch.sigmoid(x); x = torch.sum(x, dim=1, keepdim=True)`) with nn.Linear(8192, 8192) on a [128, 8192] batch (KernelBench's 32768 x 32768 weight would be 4 GiB; the features cut to 8192), fp32; one thread per (b, h) output of the product on a 1-D launch, the `long` flat index decoded by / and %, early return, KernelBench's argument names, `long` offsets, and one `atomicAdd` of each sigmoid into the zero-initialised [batch, 1] output; x `uniform(0,1)` (`torch.rand`), weight and bias `uniform(-0.011,0.011)` (nn.Linear's bound 1/sqrt(8192)).

/* @optiml
   sizes:   batch_size=128 input_size=8192 hidden_size=8192   # x 4 MiB, weight 256 MiB, bias 32 KiB in, out 512 B in and out; 17.2 GFLOP
   check:   batch_size=1 input_size=1 hidden_size=1; batch_size=2 input_size=3 hidden_size=5; batch_size=3 input_size=64 hidden_size=257; batch_size=7 input_size=100 hidden_size=100; batch_size=1 input_size=17 hidden_size=1000; batch_size=33 input_size=9 hidden_size=31; batch_size=5 input_size=255 hidden_size=129
   x:       in    float[batch_size*input_size] uniform(0,1)
   weight:  in    float[hidden_size*input_size] uniform(-0.011,0.011)
   bias:    in    float[hidden_size] uniform(-0.011,0.011)
   out:     inout float[batch_size] const(0)
   launch:  grid=cdiv(batch_size*hidden_size,256) block=256
   flops:   2*batch_size*hidden_size*input_size + 5*batch_size*hidden_size
   tol:     1e-4
*/
__global__ void matmul_sigmoid_sum(const float* x, const float* weight, const float* bias, float* out,
                                   int batch_size, int input_size, int hidden_size)
{
    long idx = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= (long)batch_size * hidden_size)
        return;

    int b = idx / hidden_size;
    int h = idx % hidden_size;

    float acc = 0.0f;
    for (int i = 0; i < input_size; i++)
        acc += x[(long)b * input_size + i] * weight[(long)h * input_size + i];
    acc += bias[h];

    float s = 1.0f / (1.0f + expf(-acc));
    atomicAdd(&out[b], s);
}
