// y[i] = sum over j of A[i][j] * x[j], with A an M x N matrix stored column-major (element (i, j) at A[j*M + i], cuBLAS style): y = A x (torch.mv), one thread per row.
#define IDX2C(i,j,ld) (((j)*(ld))+(i))

/* @optiml
   sizes:  M=8192 N=8192                # 256 MiB of A, 2 x 32 KiB of vectors
   check:  M=1 N=1; M=3 N=5; M=33 N=17; M=1 N=1000; M=700 N=1; M=129 N=257
   A:      in  float[M*N]
   x:      in  float[N]
   y:      out float[M]
   launch: grid=cdiv(M,256) block=256
   flops:  2*M*N
   tol:    1e-4
*/
__global__ void gemv_colmajor(const float* A, const float* x, float* y, int M, int N)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < M) {
        float sum = 0;
        for (int j = 0; j < N; ++j)
            sum += A[IDX2C(i, j, M)] * x[j];
        y[i] = sum;
    }
}
