// B[i][j][k] = 2 A[i-1][j-1][k-1] + 4 A[i+1][j-1][k-1] + 5 A[i-1][j-1][k-1] + 7 A[i+1][j-1][k-1] - 8 A[i-1][j-1][k-1] + 10 A[i+1][j-1][k-1] - 3 A[i][j-1][k] + 6 A[i][j][k] - 9 A[i][j+1][k] + 2 A[i-1][j-1][k+1] + 4 A[i+1][j-1][k+1] + 5 A[i-1][j][k+1] + 7 A[i+1][j][k+1] - 8 A[i-1][j+1][k+1] + 10 A[i+1][j+1][k+1] at the interior points (0 < i < ni-1 and so on; the boundary of B is left as it was): PolyBench-GPU's `3DConvolution` (its fifteen-term 3 x 3 x 3 stencil with the nine coefficients c11..c33, three of its terms on each of the two corners (i-1, j-1, k-1) and (i+1, j-1, k-1)) on a 256 x 256 x 256 volume; `convolution3D_kernel` as PolyBench writes it: `k` from x and `j` from y of a `DIM_THREAD_BLOCK_X 32` x `DIM_THREAD_BLOCK_Y 8` block, `DATA_TYPE c11, c12, ...` locals assigned `+2`, `-3` and so on (`DATA_TYPE` the template parameter, `template: DATA_TYPE=float`), flat indices `i*(nk * nj) + j*nk + k` written out for every term, and the interior test on all six faces; PolyBench launches the kernel once for each i from 1 to NI - 2, here the i loop is the grid's z (`i = blockIdx.z`, one launch of ni planes).

#define DIM_THREAD_BLOCK_X 32
#define DIM_THREAD_BLOCK_Y 8

/* @optiml
   template: DATA_TYPE=float
   sizes:  ni=256 nj=256 nk=256   # A 64 MiB in, B 64 MiB in and out; 486 MFLOP
   check:  ni=1 nj=1 nk=1; ni=3 nj=3 nk=3; ni=2 nj=5 nk=7; ni=5 nj=9 nk=33; ni=17 nj=12 nk=40; ni=4 nj=70 nk=3
   A:      in    float[ni*nj*nk]
   B:      inout float[ni*nj*nk]
   launch: grid=(cdiv(nk,32),cdiv(nj,8),ni) block=(32,8)
   flops:  29*ni*nj*nk
   tol:    1e-5
*/
template <typename DATA_TYPE>
__global__ void convolution3D_kernel(int ni, int nj, int nk, DATA_TYPE* A, DATA_TYPE* B)
{
	int k = blockIdx.x * blockDim.x + threadIdx.x;
	int j = blockIdx.y * blockDim.y + threadIdx.y;
	int i = blockIdx.z;

	DATA_TYPE c11, c12, c13, c21, c22, c23, c31, c32, c33;

	c11 = +2;  c21 = +5;  c31 = -8;
	c12 = -3;  c22 = +6;  c32 = -9;
	c13 = +4;  c23 = +7;  c33 = +10;

	if ((i < (ni-1)) && (j < (nj-1)) &&  (k < (nk-1)) && (i > 0) && (j > 0) && (k > 0))
	{
		B[i*(nk * nj) + j*nk + k] = c11 * A[(i - 1)*(nk * nj) + (j - 1)*nk + (k - 1)]  +  c13 * A[(i + 1)*(nk * nj) + (j - 1)*nk + (k - 1)]
					 +   c21 * A[(i - 1)*(nk * nj) + (j - 1)*nk + (k - 1)]  +  c23 * A[(i + 1)*(nk * nj) + (j - 1)*nk + (k - 1)]
					 +   c31 * A[(i - 1)*(nk * nj) + (j - 1)*nk + (k - 1)]  +  c33 * A[(i + 1)*(nk * nj) + (j - 1)*nk + (k - 1)]
					 +   c12 * A[(i + 0)*(nk * nj) + (j - 1)*nk + (k + 0)]  +  c22 * A[(i + 0)*(nk * nj) + (j + 0)*nk + (k + 0)]
					 +   c32 * A[(i + 0)*(nk * nj) + (j + 1)*nk + (k + 0)]  +  c11 * A[(i - 1)*(nk * nj) + (j - 1)*nk + (k + 1)]
					 +   c13 * A[(i + 1)*(nk * nj) + (j - 1)*nk + (k + 1)]  +  c21 * A[(i - 1)*(nk * nj) + (j + 0)*nk + (k + 1)]
					 +   c23 * A[(i + 1)*(nk * nj) + (j + 0)*nk + (k + 1)]  +  c31 * A[(i - 1)*(nk * nj) + (j + 1)*nk + (k + 1)]
					 +   c33 * A[(i + 1)*(nk * nj) + (j + 1)*nk + (k + 1)];
	}
}
