// r[k][k] = sqrt(sum_i a[i][k]^2) (the 2-norm of column k of the ni x nj row-major a, written on r's diagonal; the rest of r is left as it was): the column norm, first of the three kernels of a step k of PolyBench-GPU's `gramschmidt` (QR by modified Gram-Schmidt) in double precision on a tall-skinny 1048576 x 16 panel (as in a blocked QR or a TSQR panel), column k = nj/2; `gramschmidt_kernel1` as PolyBench writes it: launched as one block of `DIM_THREAD_BLOCK_X 256` threads (`gridKernel1(1, 1)`) of which only `tid == 0` works, a serial loop over all ni rows at a stride of nj doubles, `DATA_TYPE nrm = 0.0;` (`DATA_TYPE` the template parameter, `template: DATA_TYPE=double`: a float sum of a million squares in one thread drifts by 4e-4), `int i;` before the `for`, `sqrt(nrm)` stored at `r[k * nj + k]`; PolyBench's unused `q` argument is left out.

#define DIM_THREAD_BLOCK_X 256
#define DIM_THREAD_BLOCK_Y 1

/* @optiml
   template: DATA_TYPE=double
   sizes:  ni=1048576 nj=16   # a 128 MiB in (one column of it read), r 2 KiB in and out; 2 MFLOP (fp64)
   check:  ni=1 nj=1; ni=3 nj=2; ni=1000 nj=7; ni=4097 nj=16; ni=20000 nj=3; ni=65 nj=64
   a:      in    double[ni*nj]
   r:      inout double[nj*nj]
   k:      nj/2
   launch: grid=1 block=256
   flops:  2*ni+1
   tol:    1e-10
*/
template <typename DATA_TYPE>
__global__ void gramschmidt_kernel1(int ni, int nj, DATA_TYPE *a, DATA_TYPE *r, int k)
{
	int tid = blockIdx.x * blockDim.x + threadIdx.x;
	
	if(tid==0)
	{
		DATA_TYPE nrm = 0.0;
		int i;
		for(i = 0; i < ni; i++)
		{
			nrm += a[i * nj + k] * a[i * nj + k];
		}
      		r[k * nj + k] = sqrt(nrm);
	}
}
