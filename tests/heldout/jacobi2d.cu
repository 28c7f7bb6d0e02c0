// u_new[y,x] = 0.25 * (u[y-1,x] + u[y+1,x] + u[y,x-1] + u[y,x+1] - h2 * f[y,x]) at interior points 0<x<w-1, 0<y<h-1 (one Jacobi sweep for Poisson); boundary points of u_new are left as they were. All arrays are h x w row-major.
/* @optiml
   sizes:  h=8192 w=4096                # 3 x 128 MiB (u_new read and written)
   check:  h=37 w=1000; h=1 w=3; h=3 w=3; h=1000 w=2; h=17 w=33
   u:      in    float[h*w]
   f:      in    float[h*w]
   u_new:  inout float[h*w]             # boundary values kept from before the sweep
   h2:     0.0001
   launch: grid=(cdiv(w,32),cdiv(h,8)) block=(32,8)
   flops:  6*h*w
*/
__global__ void jacobi_sweep(const float* u, const float* f, float* u_new, float h2, int h, int w)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x > 0 && x < w - 1 && y > 0 && y < h - 1) {
        int idx = y * w + x;
        u_new[idx] = 0.25f * (u[idx - w] + u[idx + w] + u[idx - 1] + u[idx + 1] - h2 * f[idx]);
    }
}
