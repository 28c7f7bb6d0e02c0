// out[src_token[i]][c] += route_weight[i] * expert_out[i][c] for every expert-sorted row i: the combine step of a mixture-of-experts layer, adding each expert's output row, scaled by its routing weight, back into the token it came from (the index_add_ of Hugging Face's Mixtral / Qwen2-MoE expert loop, over rows already grouped by expert); out must start at 0; one thread per (row, channel), a 2-D grid with the row on y, one float atomicAdd each.
/* @optiml
   sizes:        N=32768 D=2048 T=4096     # expert_out 256 MiB in, out 32 MiB (read and written), src_token / route_weight 128 KiB each
   check:        N=1 D=1; N=7 D=3; N=1000 D=17; N=33 D=257; N=5000 D=2; N=8192 D=8
   expert_out:   in    float[N*D]
   src_token:    in    int[N] range(0,4096)
   route_weight: in    float[N] uniform(0,1)
   out:          inout float[T*D] const(0)   # accumulator: zeroed before each run
   launch:       grid=(cdiv(D,128),N) block=128
   flops:        2*N*D
   tol:          1e-4
*/
__global__ void moe_scatter_combine(const float* __restrict__ expert_out, const int* __restrict__ src_token,
                                    const float* __restrict__ route_weight, float* out, int N, int D)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y;
    if (c >= D || i >= N) return;

    int token = src_token[i];
    atomicAdd(&out[(long)token * D + c], route_weight[i] * expert_out[(long)i * D + c]);
}
