// H[r] = logsumexp(x[r]) - sum_j softmax(x[r])_j * x[r][j]: the per-token entropy of the policy's next-token distribution (verl's `entropy_from_logits`, the entropy bonus / metric of RL fine-tuning), 1024 tokens over a 32000-word vocabulary; one block of 256 per row, one pass: each thread keeps an online (max, sum of exp, sum of exp * x) triple, merged across the warp with __shfl_xor_sync and across the 8 warps through __shared__ arrays by the first warp, by a __device__ merge helper that skips empty states.
#define FULL_MASK 0xffffffffu

struct EntState {
    float m;   // running max
    float s;   // sum of exp(x - m)
    float t;   // sum of exp(x - m) * x
};

__device__ __forceinline__ EntState merge(EntState a, EntState b)
{
    if (b.m == -INFINITY) return a;
    if (a.m == -INFINITY) return b;
    float m = fmaxf(a.m, b.m);
    float ea = expf(a.m - m);
    float eb = expf(b.m - m);
    EntState r;
    r.m = m;
    r.s = a.s * ea + b.s * eb;
    r.t = a.t * ea + b.t * eb;
    return r;
}

__device__ __forceinline__ EntState warp_merge(EntState st)
{
    for (int offset = 16; offset > 0; offset >>= 1) {
        EntState other;
        other.m = __shfl_xor_sync(FULL_MASK, st.m, offset);
        other.s = __shfl_xor_sync(FULL_MASK, st.s, offset);
        other.t = __shfl_xor_sync(FULL_MASK, st.t, offset);
        st = merge(st, other);
    }
    return st;
}

/* @optiml
   sizes:   rows=1024 V=32000           # logits 125 MiB in, entropy 4 KiB out
   check:   rows=1 V=1; rows=2 V=7; rows=3 V=255; rows=1 V=256; rows=4 V=257; rows=5 V=1000; rows=2 V=4099; rows=33 V=50
   logits:  in  float[rows*V] normal(0,2)
   entropy: out float[rows]
   launch:  grid=rows block=256
   flops:   6*rows*V
   tol:     1e-4
*/
__global__ void entropy_from_logits(const float* __restrict__ logits, float* __restrict__ entropy, int rows, int V)
{
    __shared__ float sm[8], ss[8], st[8];

    int row = blockIdx.x;
    const float* x = logits + (size_t)row * V;

    EntState acc = {-INFINITY, 0.0f, 0.0f};
    for (int j = threadIdx.x; j < V; j += blockDim.x) {
        float v = x[j];
        if (v > acc.m) {
            float c = expf(acc.m - v);
            acc.s = acc.s * c + 1.0f;
            acc.t = acc.t * c + v;
            acc.m = v;
        } else {
            float e = expf(v - acc.m);
            acc.s += e;
            acc.t += e * v;
        }
    }

    acc = warp_merge(acc);
    int lane = threadIdx.x & 31;
    int warp = threadIdx.x >> 5;
    if (lane == 0) {
        sm[warp] = acc.m;
        ss[warp] = acc.s;
        st[warp] = acc.t;
    }
    __syncthreads();

    if (warp == 0) {
        EntState w = {-INFINITY, 0.0f, 0.0f};
        if (lane < 8) {
            w.m = sm[lane];
            w.s = ss[lane];
            w.t = st[lane];
        }
        w = warp_merge(w);
        if (lane == 0)
            entropy[row] = w.m + logf(w.s) - w.t / w.s;
    }
}
