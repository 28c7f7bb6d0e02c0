// logits[t][v] = sum over k of float(hidden[t][k]) * float(wte[v][k]): the language-model head with tied embeddings, hidden @ wte^T (GPT-2's lm_head sharing transformer.wte, a vocabulary of 50257), fp16 operands, fp32 accumulation and fp32 logits; one thread per logit, a 2-D grid with the vocabulary on x.
#include <cuda_fp16.h>

/* @optiml
   sizes:  T=512 V=50257 d=768          # wte 73.6 MiB, hidden 0.75 MiB in, logits 98.2 MiB out
   check:  T=1 V=1 d=1; T=3 V=7 d=5; T=2 V=1001 d=64; T=17 V=33 d=100; T=5 V=257 d=768; T=40 V=3 d=2
   hidden: in  __half[T*d]
   wte:    in  __half[V*d]
   logits: out float[T*V]
   launch: grid=(cdiv(V,16),cdiv(T,16)) block=(16,16)
   flops:  2*T*V*d
   tol:    1e-4
*/
__global__ void lm_head_logits(const __half* hidden, const __half* wte, float* logits, int T, int V, int d)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    int t = blockIdx.y * blockDim.y + threadIdx.y;
    if (t >= T || v >= V)
        return;

    const __half* h = hidden + (long)t * d;
    const __half* w = wte + (long)v * d;
    float sum = 0.0f;
    for (int k = 0; k < d; ++k)
        sum += __half2float(h[k]) * __half2float(w[k]);
    logits[(long)t * V + v] = sum;
}
