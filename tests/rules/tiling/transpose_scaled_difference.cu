// y = alpha * x - 2 * xt^T: x and y are h x w row-major, xt is w x h row-major. Early-return guard, const index
// variables written threadIdx-first, the transposed read in a statement of its own.

/* @optiml
   sizes:  h=2048 w=3072
   check:  h=37 w=1000; h=1 w=3; h=1000 w=1; h=33 w=17; h=1 w=1
   x:      in  float[h*w]
   xt:     in  float[w*h]
   y:      out float[h*w]
   alpha:  1.5
   launch: grid=(cdiv(w,16),cdiv(h,8)) block=(16,8)
*/
__global__ void scaled_minus_transpose(const float* __restrict__ x, const float* __restrict__ xt,
                                       float* __restrict__ y, float alpha, int h, int w)
{
    const int j = threadIdx.x + blockIdx.x * blockDim.x;
    const int i = blockDim.y * blockIdx.y + threadIdx.y;
    if (j >= w || i >= h) return;
    float v = alpha * x[w * i + j];
    v -= 2.0f * xt[i + h * j];
    y[j + i * w] = v;
}
