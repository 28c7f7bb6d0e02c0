// tmp[i] += sum_j A[i][j] x[j], y[i] = alpha * tmp[i] + beta * (y[i] + sum_j B[i][j] x[j]) (with tmp and y zero, PolyBench's y = alpha A x + beta B x): PolyBench-GPU's `gesummv` (scalar, vector and matrix multiplication; PolyBench's ALPHA 43532 and BETA 12313) on two 4096 x 4096 row-major matrices; `gesummv_kernel` as PolyBench writes it: one thread a row, `DATA_TYPE` (PolyBench's typedef, here the template parameter, `template: DATA_TYPE=float`), `A[i * n + j]` row-major indexing, `int j;` declared before the `for`, both sums accumulated in global memory (`tmp[i] +=`, `y[i] +=`) inside the loop, `DIM_THREAD_BLOCK_X 256` blocks; `tmp` and `y` are accumulated onto what they hold (filled here, so that the read of their old value is checked).

#define DIM_THREAD_BLOCK_X 256
#define DIM_THREAD_BLOCK_Y 1

/* @optiml
   template: DATA_TYPE=float
   sizes:  n=4096   # A and B 64 MiB in each, x 16 KiB in, tmp and y 16 KiB in and out each; 67 MFLOP
   check:  n=1; n=2; n=7; n=255; n=257; n=600
   A:      in    float[n*n]
   B:      in    float[n*n]
   tmp:    inout float[n]
   x:      in    float[n]
   y:      inout float[n]
   alpha:  43532.0
   beta:   12313.0
   launch: grid=cdiv(n,256) block=256
   flops:  4*n*n+3*n
   tol:    1e-5
*/
template <typename DATA_TYPE>
__global__ void gesummv_kernel(int n, DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE* A, DATA_TYPE* B, DATA_TYPE* tmp, DATA_TYPE* x, DATA_TYPE* y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
	{
		int j;
		for(j = 0; j < n; j++)
		{	
			tmp[i] += A[i * n + j] * x[j];
			y[i] += B[i * n + j] * x[j];
		}
		y[i] = alpha * tmp[i] + beta  * y[i];
	}
}
