// C[i][j] = beta * C[i][j] + sum_k (alpha * A[i][k] * B[j][k] + alpha * B[i][k] * A[j][k]) (C = alpha A B^T + alpha B A^T + beta C, the whole n x n C, A and B n x m row-major): PolyBench-GPU's `syr2k` (symmetric rank-2k update; PolyBench's ALPHA 12435 and BETA 4546) with n = 2048, m = 1024; `syr2k_kernel` as PolyBench writes it: `j` from x and `i` from y of a `DIM_THREAD_BLOCK_X 32` x `DIM_THREAD_BLOCK_Y 8` block, `DATA_TYPE` as the template parameter (`template: DATA_TYPE=float`), `c[i * n + j] *= beta` then the k loop adding both products into `c[i * n + j]` in global memory, the rows of A and B read at `i * m + k` and `j * m + k` (the second operand of each product transposed).

#define DIM_THREAD_BLOCK_X 32
#define DIM_THREAD_BLOCK_Y 8

/* @optiml
   template: DATA_TYPE=float
   sizes:  n=2048 m=1024   # a and b 8 MiB in each, c 16 MiB in and out; 30 GFLOP
   check:  n=1 m=1; n=2 m=3; n=7 m=5; n=33 m=17; n=40 m=64; n=70 m=9
   a:      in    float[n*m]
   b:      in    float[n*m]
   c:      inout float[n*n]
   alpha:  12435.0
   beta:   4546.0
   launch: grid=(cdiv(n,32),cdiv(n,8)) block=(32,8)
   flops:  7*n*n*m+n*n
   tol:    1e-5
*/
template <typename DATA_TYPE>
__global__ void syr2k_kernel(int n, int m, DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE *a, DATA_TYPE *b, DATA_TYPE *c)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < n) && (j < n))
	{
		c[i * n + j] *= beta;

		int k;
		for(k = 0; k < m; k++)
		{
			c[i * n + j] += alpha * a[i * m + k] * b[j * m + k] + alpha * b[i * m + k] * a[j * m + k];
		}
	}
}
