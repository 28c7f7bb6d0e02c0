// u_next = 2*u - u_prev + c2 * (u[j][i-1] + u[j][i+1] + u[j-1][i] + u[j+1][i] - 4*u[j][i]) at interior points of an ny x nx grid of doubles, u_next = 0 on the boundary (fixed ends): one leapfrog time step of the 2-D wave equation, c2 = (c*dt/h)^2.
#define IDX(j, i) ((size_t)(j) * nx + (i))

/* @optiml
   sizes:  nx=4096 ny=2048              # 2^23 doubles per grid: 2 x 64 MiB in, 64 MiB out
   check:  nx=1 ny=1; nx=3 ny=3; nx=37 ny=5; nx=2 ny=100; nx=500 ny=1; nx=65 ny=33
   u_prev: in  double[nx*ny]
   u:      in  double[nx*ny]
   u_next: out double[nx*ny]
   c2:     0.25
   launch: grid=(cdiv(nx,64),cdiv(ny,4)) block=(64,4)
   flops:  9*nx*ny
*/
__global__ void wave2d_step(const double* u_prev, const double* u, double* u_next, double c2, int nx, int ny)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= nx || j >= ny) return;

    if (i == 0 || j == 0 || i == nx - 1 || j == ny - 1) {
        u_next[IDX(j, i)] = 0.0;
        return;
    }
    double lap = u[IDX(j, i - 1)] + u[IDX(j, i + 1)] + u[IDX(j - 1, i)] + u[IDX(j + 1, i)] - 4.0 * u[IDX(j, i)];
    u_next[IDX(j, i)] = 2.0 * u[IDX(j, i)] - u_prev[IDX(j, i)] + c2 * lap;
}
