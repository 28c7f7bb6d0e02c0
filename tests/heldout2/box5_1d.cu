// y[i] = (x[i-2] + x[i-1] + x[i] + x[i+1] + x[i+2]) / 5 with neighbours outside [0, n) left out of the sum.
/* @optiml
   sizes:  n=67108864
   check:  n=1; n=4; n=1000003
   x:      in  float[n]
   y:      out float[n]
   launch: grid=cdiv(n,256) block=256
   flops:  5*n
*/
__global__ void box5(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s = 0.0f;
    #pragma unroll
    for (int k = -2; k <= 2; ++k) {
        int j = i + k;
        if (j >= 0 && j < n) s += x[j];
    }
    y[i] = s * 0.2f;
}
