// y[i] = x[i] ^ p for a float exponent p (torch.pow(x, p)), over n positive floats.
/* @optiml
   sizes:  n=33554432                   # 2^25 floats: 128 MiB in, 128 MiB out
   check:  n=1; n=255; n=1000003
   x:      in  float[n] uniform(0.1,4)  # positive, so a fractional power is defined
   y:      out float[n]
   p:      2.5
   launch: grid=cdiv(n,256) block=256
   flops:  n
*/
__global__ void pow_scalar(const float* __restrict__ x, float* __restrict__ y, const float p, const size_t n)
{
    size_t idx = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (idx >= n) return;
    y[idx] = powf(x[idx], p);
}
