/* @optiml
   sizes:  h=4096 w=4096
   u:      in float[h*w-1]
   f:      in float[h*w-w-1]
   u_new:  inout float[h*w-w-1]
   h2:     0.5
   launch: grid=(cdiv(w-1,16),cdiv(h-1,16)) block=(16,16)
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
