// hz[i][j] = hz[i][j] - 0.7 * (ex[i][j+1] - ex[i][j] + ey[i+1][j] - ey[i][j]) on the staggered Yee grid (ex nx x (ny+1), ey (nx+1) x ny, hz nx x ny, row-major): the magnetic-field update, third of the three kernels of a time step of PolyBench-GPU's `fdtd-2d` (2-D finite-difference time-domain, TE mode) on a 4096 x 4096 grid; `fdtd_step3_kernel` as PolyBench-GPU writes it: `j` from x and `i` from y of a `DIM_THREAD_BLOCK_X 32` x `DIM_THREAD_BLOCK_Y 8` block, `DATA_TYPE` as the template parameter (`template: DATA_TYPE=float`), the padded row lengths `(ny+1)` and `ny` written into the index expressions, a `0.7f` literal, `hz` updated in place (`inout`), and the time step `t` passed and unused (`t: 0`).

#define DIM_THREAD_BLOCK_X 32
#define DIM_THREAD_BLOCK_Y 8

/* @optiml
   template: DATA_TYPE=float
   sizes:  nx=4096 ny=4096   # ex and ey 64 MiB in each, hz 64 MiB in and out; 84 MFLOP
   check:  nx=1 ny=1; nx=2 ny=3; nx=9 ny=31; nx=8 ny=33; nx=40 ny=7; nx=1 ny=100; nx=65 ny=64
   ex:     in    float[nx*(ny+1)]
   ey:     in    float[(nx+1)*ny]
   hz:     inout float[nx*ny]
   t:      0
   launch: grid=(cdiv(ny,32),cdiv(nx,8)) block=(32,8)
   flops:  5*nx*ny
   tol:    1e-6
*/
template <typename DATA_TYPE>
__global__ void fdtd_step3_kernel(int nx, int ny, DATA_TYPE *ex, DATA_TYPE *ey, DATA_TYPE *hz, int t)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < nx) && (j < ny))
	{	
		hz[i*ny + j] = hz[i*ny + j] - 0.7f*(ex[i*(ny+1) + (j+1)] - ex[i*(ny+1) + j] + ey[(i + 1)*ny + j] - ey[i*ny + j]);
	}
}
