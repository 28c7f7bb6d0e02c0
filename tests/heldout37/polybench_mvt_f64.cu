// x2[i] += sum_j A[j][i] y_2[j] (x2 += A^T y_2, A n x n row-major, double): the second product of PolyBench-GPU's `mvt` (matrix-vector product and transpose, x1 = x1 + A y_1 and x2 = x2 + A^T y_2) on a 4096 x 4096 matrix in double precision (PolyBench's DATA_TYPE switched to double); `mvt_kernel2` as PolyBench writes it: one thread an output, `DATA_TYPE` as the template parameter (`template: DATA_TYPE=double`), the transposed read `a[j * n + i]` (consecutive threads read consecutive columns of a row), `int j;` before the `for`, the sum accumulated in global memory onto x2's old value (`x2[i] +=`), `DIM_THREAD_BLOCK_X 256` blocks.

#define DIM_THREAD_BLOCK_X 256
#define DIM_THREAD_BLOCK_Y 1

/* @optiml
   template: DATA_TYPE=double
   sizes:  n=4096   # a 128 MiB in, y_2 32 KiB in, x2 32 KiB in and out; 34 MFLOP (fp64)
   check:  n=1; n=2; n=5; n=255; n=257; n=700
   a:      in    double[n*n]
   x2:     inout double[n]
   y_2:    in    double[n]
   launch: grid=cdiv(n,256) block=256
   flops:  2*n*n
   tol:    1e-10
*/
template <typename DATA_TYPE>
__global__ void mvt_kernel2(int n, DATA_TYPE *a, DATA_TYPE *x2, DATA_TYPE *y_2)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
	{
		int j;
		for(j=0; j < n; j++)
		{
			x2[i] += a[j * n + i] * y_2[j];
		}
	}
}
