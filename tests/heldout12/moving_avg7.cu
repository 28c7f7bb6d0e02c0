// y[i] = (1/7) * sum over j in [i-3, i+3] of x[j], with x[j] = 0 outside [0, n): centred moving average of width 7 (avg_pool1d, kernel 7, stride 1, padding 3, zeros counted).
#define WIDTH 7
#define HALF (WIDTH / 2)

/* @optiml
   sizes:  n=33554432                   # 2^25 floats: 128 MiB in, 128 MiB out
   check:  n=1; n=4; n=7; n=255; n=1000003
   x:      in  float[n]
   y:      out float[n]
   launch: grid=cdiv(n,256) block=256
   flops:  8*n
*/
__global__ void moving_avg7(const float* __restrict__ x, float* __restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float s = 0.0f;
        #pragma unroll
        for (int k = -HALF; k <= HALF; k++) {
            int j = i + k;
            if (j >= 0 && j < n)
                s += __ldg(&x[j]);
        }
        y[i] = s / static_cast<float>(WIDTH);
    }
}
