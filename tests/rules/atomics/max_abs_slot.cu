// peaks[slot] = max(peaks[slot], |q[e]|): atomicMax onto one slot chosen by a kernel argument.

/* @optiml
   sizes:  m=8388608
   check:  m=1000003; m=1; m=77
   q:      in    int[m] range(-100000,100000)
   peaks:  inout int[4] range(0,1000)
   slot:   2
   launch: grid=cdiv(m,512) block=512
*/
__global__ void max_abs_slot(const int* q, int* peaks, int slot, int m)
{
    unsigned int e = blockDim.x * blockIdx.x + threadIdx.x;
    if (e < m) {
        int magnitude = q[e] < 0 ? -q[e] : q[e];
        atomicMax(&peaks[slot], magnitude);
    }
}
