// output[r][j] = sum over k <= j of input[r][k]: an inclusive scan of each row of an int32 matrix into int64 (torch.cumsum(a, dim=1), which promotes int32 to int64), exact; one thread per row, source and destination pointers advanced element by element in a while (n--) loop.
#include <cstdint>

/* @optiml
   sizes:  rows=16384 cols=2048         # 128 MiB of int32 in, 256 MiB of int64 out
   check:  rows=1 cols=1; rows=3 cols=7; rows=100 cols=1; rows=17 cols=1000; rows=130 cols=33
   input:  in  int32_t[rows*cols] range(-1000,1000)
   output: out int64_t[rows*cols]
   launch: grid=cdiv(rows,128) block=128
   flops:  rows*cols
*/
__global__ void cumsum_i32_rows(const int32_t* input, int64_t* output, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;

    const int32_t* src = input + (int64_t)r * cols;
    int64_t* dst = output + (int64_t)r * cols;
    int64_t running = 0;
    int n = cols;
    while (n--) {
        running += *src++;
        *dst++ = running;
    }
}
