// grad_weight[c] = sum_{n, s} (input[n][c][s] > 0 ? 0 : input[n][c][s] * grad_output[n][c][s]): the weight gradient of `nn.PReLU(num_parameters=64)` (`torch.autograd.grad(F.prelu(x, w), w, g)`, the PReLU after the first convolutions of insightface's IR-ResNet face models at 112 x 112) on [16, 64, 112, 112] fp32; in PyTorch's legacy THC / ATen style: `template <typename scalar_t, typename accscalar_t>` (`template: scalar_t=float accscalar_t=double`, a double accumulator), `<cstdint>` `int64_t` sizes and indices, one block a channel (`grid=channels`) whose threads stride over batch x spatial with `i += blockDim.x`, `const int64_t` locals for the `(n, s)` decode, `static_cast<accscalar_t>` products, a `__shared__ accscalar_t partial[CUDA_NUM_THREADS]` tree with `__syncthreads()`, `#define CUDA_NUM_THREADS 256`, and one `static_cast<scalar_t>` store a block.
#include <cstdint>

#define CUDA_NUM_THREADS 256

/* @optiml
   template: scalar_t=float accscalar_t=double
   sizes:    batch=16 channels=64 spatial=12544   # grad_output 49 MiB in, input 49 MiB in, grad_weight 256 B out; 38.5 MFLOP
   check:    batch=1 channels=1 spatial=1; batch=2 channels=3 spatial=5; batch=3 channels=7 spatial=100; batch=1 channels=2 spatial=1000; batch=5 channels=64 spatial=49; batch=17 channels=4 spatial=33
   grad_output: in  float[batch*channels*spatial]
   input:       in  float[batch*channels*spatial]
   grad_weight: out float[channels]
   launch:   grid=channels block=256
   flops:    3*batch*channels*spatial
   tol:      1e-5
*/
template <typename scalar_t, typename accscalar_t>
__global__ void prelu_cuda_backward_weight_kernel(const scalar_t* grad_output, const scalar_t* input,
                                                  scalar_t* grad_weight, const int64_t batch,
                                                  const int64_t channels, const int64_t spatial)
{
  __shared__ accscalar_t partial[CUDA_NUM_THREADS];

  const int64_t c = blockIdx.x;
  const int64_t total = batch * spatial;
  accscalar_t sum = 0;
  for (int64_t i = threadIdx.x; i < total; i += blockDim.x) {
    const int64_t n = i / spatial;
    const int64_t s = i - n * spatial;
    const int64_t offset = (n * channels + c) * spatial + s;
    const scalar_t x = input[offset];
    if (x <= 0) {
      sum += static_cast<accscalar_t>(x) * static_cast<accscalar_t>(grad_output[offset]);
    }
  }
  partial[threadIdx.x] = sum;
  __syncthreads();

  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) {
      partial[threadIdx.x] += partial[threadIdx.x + stride];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    grad_weight[c] = static_cast<scalar_t>(partial[0]);
  }
}
