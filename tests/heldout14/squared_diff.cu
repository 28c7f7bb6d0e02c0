// out[i] = (a[i] - b[i])^2: element-wise squared difference of two vectors (torch.square(a - b)).
/* @optiml
   sizes:  n=33554432                   # 2^25 floats: 2 x 128 MiB in, 128 MiB out
   check:  n=1; n=255; n=1000003
   a:      in  float[n]
   b:      in  float[n]
   out:    out float[n]
   launch: grid=cdiv(n,512) block=512
   flops:  2*n
*/
extern "C" __global__ void squared_diff(const float *a, const float *b, float *out, int n)
{
    int idx = threadIdx.x + blockDim.x * blockIdx.x;
    if (idx < n) {
        float diff = a[idx] - b[idx];
        out[idx] = diff * diff;
    }
}
