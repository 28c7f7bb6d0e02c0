// flags[g] = data[g] > 0, and counter[0] += how many are: a conditional atomic next to an ordinary store.

/* @optiml
   sizes:  len=16777216
   check:  len=1000003; len=1; len=300
   data:    in    float[len]
   flags:   out   int[len]
   counter: inout int[1] range(0,1000)
   launch: grid=cdiv(len,256) block=256
*/
__global__ void count_positive(const float* data, int* flags, int* counter, int len)
{
    int gid = (blockIdx.x * blockDim.x) + threadIdx.x;
    if (len > gid) {
        const bool positive = data[gid] > 0.0f;
        flags[gid] = positive;
        if (positive) {
            atomicAdd(counter, 1);
        }
    }
}
