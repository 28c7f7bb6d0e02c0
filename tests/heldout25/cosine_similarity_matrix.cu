// S[i][j] = dot(A[i], B[j]) / (max(|A[i]|, 1e-12) * max(|B[j]|, 1e-12)): the pairwise cosine similarity matrix of two sets of embeddings (sentence-transformers' util.cos_sim, `F.normalize(a) @ F.normalize(b).T`), 4096 queries against 7168 keys of 256 features; the 16 x 16 shared-memory tiled matrix multiply in its A times B-transposed form (both tiles loaded row-major from K-contiguous rows, zero-filled past the edges, two __syncthreads() per step), each thread also summing the squares of its A row and B row from the same tiles, one divide at the end.
#define TILE 16

/* @optiml
   sizes:   M=4096 N=7168 K=256         # S 112 MiB out, A 4 MiB and B 7 MiB in
   check:   M=1 N=1 K=1; M=3 N=5 K=7; M=16 N=16 K=16; M=17 N=33 K=20; M=40 N=9 K=100; M=5 N=50 K=257
   A:       in  float[M*K]
   B:       in  float[N*K]
   S:       out float[M*N]
   launch:  grid=(cdiv(N,16),cdiv(M,16)) block=(16,16)
   flops:   6*M*N*K
   tol:     1e-4
*/
__global__ void cosine_similarity_matrix(const float* A, const float* B, float* S, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];

    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;         // row of A, row of S
    int col = blockIdx.x * TILE + tx;         // row of B, column of S
    int brow = blockIdx.x * TILE + ty;        // the row of B this thread loads

    float dot = 0.0f, na = 0.0f, nb = 0.0f;
    for (int t = 0; t < (K + TILE - 1) / TILE; t++) {
        int k = t * TILE + tx;
        As[ty][tx] = (row < M && k < K) ? A[(size_t)row * K + k] : 0.0f;
        Bs[ty][tx] = (brow < N && k < K) ? B[(size_t)brow * K + k] : 0.0f;
        __syncthreads();

        for (int kk = 0; kk < TILE; kk++) {
            float a = As[ty][kk];
            float b = Bs[tx][kk];
            dot += a * b;
            na += a * a;
            nb += b * b;
        }
        __syncthreads();
    }

    if (row < M && col < N)
        S[(size_t)row * N + col] = dot / (fmaxf(sqrtf(na), 1e-12f) * fmaxf(sqrtf(nb), 1e-12f));
}
