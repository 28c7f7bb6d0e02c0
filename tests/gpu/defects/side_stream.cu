// Planted defect: the kernel hands its work to a child grid launched on a device-side stream, so that the
// launch the harness times returns before the work is done. Candidates are compiled without relocatable device
// code, so device-side launches are refused at compile time.
// expect: compile_error
/* @optiml
   sizes:  n=16777216
   check:  n=1000
   x:      in  float[n]
   y:      out float[n]
   launch: grid=cdiv(n,256) block=256
*/
__global__ void scale(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i];
}

/* @optiml
   sizes:  n=16777216
   check:  n=1000
   x:      in  float[n]
   y:      out float[n]
   launch: grid=1 block=1
   reference: scale
*/
__global__ void scale_on_side_stream(const float* x, float* y, int n) {
    cudaStream_t side;
    cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
    scale<<<(n + 255) / 256, 256, 0, side>>>(x, y, n);
}
