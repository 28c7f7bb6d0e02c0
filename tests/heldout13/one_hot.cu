// out[i][c] = (labels[i] == c) ? 1 : 0: one-hot encoding of N int64 class labels into an N x C float matrix (F.one_hot(labels, C).float()), one thread per output element.
/* @optiml
   sizes:  N=65536 C=1000               # 250 MiB out, 512 KiB of labels
   check:  N=1 C=1000; N=7 C=1001; N=1000 C=1000; N=33 C=1500
   labels: in  int64[N] range(0,1000)   # every check size has C >= 1000
   out:    out float[N*C]
   launch: grid=cdiv(N*C,256) block=256
*/
__global__ void one_hot(const long long* labels, float* out, int N, int C)
{
    size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < (size_t)N * C) {
        size_t i = idx / C;
        long long c = (long long)(idx - i * C);
        out[idx] = labels[i] == c ? 1.0f : 0.0f;
    }
}
