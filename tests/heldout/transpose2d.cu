// out[x,y] = in[y,x]: out (nx x ny) is the transpose of in (ny x nx), both row-major.
/* @optiml
   sizes:  ny=8192 nx=8192              # 256 MiB in, 256 MiB out
   check:  ny=37 nx=1000; ny=1 nx=3; ny=1000 nx=1; ny=17 nx=33
   in:     in  float[ny*nx]
   out:    out float[nx*ny]
   launch: grid=(cdiv(nx,32),cdiv(ny,8)) block=(32,8)
*/
__global__ void transpose_naive(float* out, const float* in, int nx, int ny)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < nx && y < ny)
        out[x * ny + y] = in[y * nx + x];
}
