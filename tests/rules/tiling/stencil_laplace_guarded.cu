// lap = 5-point Laplacian of u; a neighbour outside the grid is replaced by the centre value. u and lap are
// ny x nx row-major. Early-return guard, reads unrolled and checked by conditional expressions written as
// `y > 0`, `y + 1 < ny`, `x < nx - 1`, indices written in several orders.

/* @optiml
   sizes:  ny=4096 nx=4096
   check:  ny=37 nx=1000; ny=1 nx=3; ny=1 nx=1; ny=1000 nx=1; ny=2 nx=2; ny=33 nx=65
   u:      in  float[ny*nx]
   lap:    out float[ny*nx]
   launch: grid=(cdiv(nx,16),cdiv(ny,16)) block=(16,16)
*/
__global__ void laplace5(const float* u, float* lap, int ny, int nx)
{
    int x = threadIdx.x + blockDim.x * blockIdx.x;
    int y = threadIdx.y + blockDim.y * blockIdx.y;
    if (x >= nx || y >= ny) return;
    float center = u[y * nx + x];
    float up = y > 0 ? u[(y - 1) * nx + x] : center;
    float down = y + 1 < ny ? u[(y + 1) * nx + x] : center;
    float left = x > 0 ? u[x - 1 + nx * y] : center;
    float right = x < nx - 1 ? u[y * nx + x + 1] : center;
    lap[y * nx + x] = up + down + left + right - 4.0f * center;
}
