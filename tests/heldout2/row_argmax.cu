// idx[b] = argmax over j of logits[b][j] (first index on ties); logits is batch x vocab row-major.
/* @optiml
   sizes:  batch=4096 vocab=32000
   check:  batch=5 vocab=77; batch=1 vocab=1; batch=33 vocab=2
   logits: in  float[batch*vocab]
   idx:    out int[batch]
   launch: grid=cdiv(batch,128) block=128
*/
extern "C" __global__ void row_argmax(const float* logits, int* idx, int batch, int vocab)
{
    int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= batch) return;
    const float* row = logits + (size_t)b * vocab;
    int best = 0;
    float best_value = row[0];
    for (int j = 1; j < vocab; ++j) {
        if (row[j] > best_value) {
            best_value = row[j];
            best = j;
        }
    }
    idx[b] = best;
}
