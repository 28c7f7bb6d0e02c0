// adv[i] = (r[i] - mean(r[g])) / (std(r[g]) + 1e-4) over the group g = i / G of G completions of one prompt (unbiased std): the group-relative advantages of GRPO (TRL's GRPOTrainer, `rewards.view(-1, G).mean(dim=1)` / `.std(dim=1)` repeated over the group), 1048576 prompts of 16 completions; one thread per completion, each walking its own group twice (mean, then the squared deviations), an int index, no shared memory.

/* @optiml
   sizes:   P=1048576 G=16              # rewards 64 MiB in, advantages 64 MiB out
   check:   P=1 G=2; P=3 G=2; P=7 G=3; P=16 G=16; P=17 G=15; P=5 G=64; P=100 G=8
   rewards:    in  float[P*G] uniform(0,1)
   advantages: out float[P*G]
   launch:  grid=cdiv(P*G,256) block=256
   flops:   4*P*G*G
   tol:     1e-4
*/
__global__ void grpo_advantages(const float* rewards, float* advantages, int P, int G)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= P * G)
        return;

    const float* group = rewards + (i / G) * G;
    float mean = 0.0f;
    for (int k = 0; k < G; ++k)
        mean += group[k];
    mean /= G;

    float sq = 0.0f;
    for (int k = 0; k < G; ++k) {
        float d = group[k] - mean;
        sq += d * d;
    }
    float std = sqrtf(sq / (G - 1));
    advantages[i] = (rewards[i] - mean) / (std + 1e-4f);
}
