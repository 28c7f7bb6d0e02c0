/* @optiml
   sizes:  nx=4096 ny=4096
   out:    out float[nx*ny]
   in:     in float[nx*ny]
   launch: grid=(cdiv(nx,16),cdiv(ny,16)) block=(16,16)
*/
__global__ void transpose_naive(float* out, const float* in, int nx, int ny)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < nx && y < ny)
        out[x * ny + y] = in[y * nx + x];
}
