// out[b] = sum over k of x[b][k] * y[b][k]: one dot product per batch of two B x K matrices ((x * y).sum(dim=1), torch.bmm of 1 x K by K x 1), one thread per batch.
/* @optiml
   sizes:  B=65536 K=512                # 2^25 floats each: 2 x 128 MiB in, 256 KiB out
   check:  B=1 K=1; B=3 K=7; B=37 K=1000; B=300 K=2; B=1 K=4099
   x:      in  float[B*K]
   y:      in  float[B*K]
   out:    out float[B]
   launch: grid=cdiv(B,128) block=128
   flops:  2*B*K
   tol:    1e-4
*/
__global__ void batched_dot(const float* __restrict__ x, const float* __restrict__ y, float* __restrict__ out,
                            unsigned int B, unsigned int K)
{
    unsigned int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b < B) {
        size_t off = (size_t)b * K;
        float sum = 0.0f;
        for (unsigned int k = 0; k < K; ++k) {
            sum += x[off + k] * y[off + k];
        }
        out[b] = sum;
    }
}
