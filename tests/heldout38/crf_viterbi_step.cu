// bp[b, j] = argmax_i (score[b, i] + trans[i, j]) (the first on ties), next[b, j] = mask[b] ? max_i (score[b, i] + trans[i, j]) + emit[b, j] : score[b, j]: one time step of Viterbi decoding for a linear-chain CRF / HMM (AllenNLP's `viterbi_decode` step, `torch.max(path_scores.unsqueeze(2) + transitions, 1)` then `+ emissions`, with pytorch-crf's per-sequence mask that keeps the score of finished sequences), a batch of 2048 sequences over 1024 states (a large-tagset or HMM decoder), int64 backpointers; written in modern CUDA C++: `using index_t = long long;` for the backpointer cast (the pointer parameter is spelled `long long*`: OptiML reads element types from the signature and refuses an alias there), a `struct Best { float score; int tag; }` local aggregate updated by a capturing lambda `consider(i)` with a strict `>` (so the first maximum wins, as `torch.argmax`), `Best best{-INFINITY, 0}`, `const auto` row pointers, `static_cast<size_t>` offsets, a `const bool*` mask read in a ternary and `__restrict__` everywhere; a 2-D grid `(cdiv(T,128), B)` with the sequence on y; scores, transitions and emissions `uniform(-1,1)`, the mask `range(0,2)`.

using index_t = long long;

struct Best {
    float score;
    int tag;
};

/* @optiml
   sizes:       B=2048 T=1024   # score 8 MiB, trans 4 MiB, emit 8 MiB in, next_score 8 MiB and backpointer 16 MiB out; 4.3 GFLOP (an add and a compare a pair)
   check:       B=1 T=1; B=2 T=3; B=3 T=129; B=5 T=127; B=7 T=300; B=1 T=1000; B=64 T=64
   score:       in  float[B*T]
   trans:       in  float[T*T]
   emit:        in  float[B*T]
   mask:        in  bool[B]
   next_score:  out float[B*T]
   backpointer: out long long[B*T]
   launch:      grid=(cdiv(T,128),B) block=128
   flops:       2*B*T*T
   tol:         1e-6
*/
__global__ void viterbi_step(const float* __restrict__ score, const float* __restrict__ trans,
                             const float* __restrict__ emit, const bool* __restrict__ mask,
                             float* __restrict__ next_score, long long* __restrict__ backpointer, int B, int T)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;   // the tag at this step
    const int b = blockIdx.y;                              // the sequence
    if (j >= T || b >= B) return;

    const auto prev = score + static_cast<size_t>(b) * T;
    Best best{-INFINITY, 0};
    auto consider = [&](int i) {
        const float s = prev[i] + trans[static_cast<size_t>(i) * T + j];
        if (s > best.score) best = Best{s, i};
    };
    for (int i = 0; i < T; ++i) consider(i);

    const size_t out = static_cast<size_t>(b) * T + j;
    backpointer[out] = static_cast<index_t>(best.tag);
    next_score[out] = mask[b] ? best.score + emit[out] : prev[j];
}
