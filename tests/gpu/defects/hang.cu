// Planted defect: never terminates (a spin on a flag nobody sets).
// expect: timeout
/* @optiml
   sizes:  n=1048576
   x:      in  float[n]
   y:      out float[n]
   launch: grid=cdiv(n,256) block=256
*/
__global__ void relu(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

/* @optiml
   sizes:  n=1048576
   x:      in  float[n]
   y:      out float[n]
   launch: grid=cdiv(n,256) block=256
   reference: relu
*/
__global__ void relu_spin(const float* x, float* y, int n) {
    volatile int* flag = (volatile int*)y;
    while (flag[n - 1] != 12345) { }
}
