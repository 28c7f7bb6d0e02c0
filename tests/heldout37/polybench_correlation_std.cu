// std[j] = sqrt(sum_i (data[i][j] - mean[j])^2 / FLOAT_N), set to 1 where it is <= EPS (data n x m row-major, FLOAT_N = 3214212.01, EPS = 0.005): the standard-deviation step, second of the four kernels of PolyBench-GPU's `correlation` (the correlation matrix of m variables over n observations; the column means come from its first kernel, here an input) on 4096 x 4096 data; `std_kernel` as PolyBench writes it: one thread a column, `DATA_TYPE` as the template parameter (`template: DATA_TYPE=float`), PolyBench's `#define FLOAT_N` and `#define EPS` double constants, the sum accumulated in the output itself (`std[j] = 0.0;` then `std[j] +=` in global memory), the centred value computed twice, `std[j] /= (FLOAT_N)`, `sqrt`, and the `if (std[j] <= EPS)` guard; data `uniform(-1,1)`, means `uniform(-0.1,0.1)`; with PolyBench's FLOAT_N the guard takes the columns of fewer than about 240 rows (several check sizes take it everywhere, one takes it in part).

#define FLOAT_N 3214212.01
#define EPS 0.005

#define DIM_THREAD_BLOCK_KERNEL_2_X 256
#define DIM_THREAD_BLOCK_KERNEL_2_Y 1

/* @optiml
   template: DATA_TYPE=float
   sizes:  m=4096 n=4096   # data 64 MiB in, mean 16 KiB in, std 16 KiB out; 50 MFLOP
   check:  m=1 n=1; m=3 n=5; m=257 n=100; m=300 n=240; m=33 n=1000; m=513 n=64
   mean:   in  float[m] uniform(-0.1,0.1)
   std:    out float[m]
   data:   in  float[n*m]
   launch: grid=cdiv(m,256) block=256
   flops:  3*n*m+2*m
   tol:    1e-5
*/
template <typename DATA_TYPE>
__global__ void std_kernel(int m, int n, DATA_TYPE *mean, DATA_TYPE *std, DATA_TYPE *data)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;

	if (j < m)
	{
		std[j] = 0.0;

		int i;
		for(i = 0; i < n; i++)
		{
			std[j] += (data[i*m + j] - mean[j]) * (data[i*m + j] - mean[j]);
		}
		std[j] /= (FLOAT_N);
		std[j] = sqrt(std[j]);
		if(std[j] <= EPS) 
		{
			std[j] = 1.0;
		}
	}
}
