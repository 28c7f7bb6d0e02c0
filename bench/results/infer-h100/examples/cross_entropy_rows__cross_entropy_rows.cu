// loss[r] = log(sum over c of exp(logits[r,c])) - logits[r, labels[r]] (softmax cross entropy per row); logits is rows x cols row-major, labels and loss have rows entries.
#include <cstdio>
#include <cuda_runtime.h>

/* @optiml
   sizes:  rows=65536 cols=1000
   logits: in float[1024]                 # adjust: its indices depend on the data or on no size: the most touched, rounded up
   labels: in int[rows]
   loss:   out float[rows]
   launch: grid=cdiv(rows,256) block=256
*/
__global__ void cross_entropy_rows(const float* logits, const int* labels, float* loss, int rows, int cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        float m = logits[row * cols];
        for (int c = 1; c < cols; c++) {
            if (logits[row * cols + c] > m) {
                m = logits[row * cols + c];
            }
        }

        float sum = 0.0f;
        for (int c = 0; c < cols; c++) {
            sum += expf(logits[row * cols + c] - m);
        }

        int label = labels[row];
        loss[row] = logf(sum) + m - logits[row * cols + label];
    }
}

int main()
{
    int rows = 65536;
    int cols = 1000;
    float *logits, *loss;
    int* labels;
    cudaMalloc(&logits, rows * cols * sizeof(float));
    cudaMalloc(&labels, rows * sizeof(int));
    cudaMalloc(&loss, rows * sizeof(float));
    cudaMemset(logits, 0, rows * cols * sizeof(float));
    cudaMemset(labels, 0, rows * sizeof(int));

    int block = 256;
    int grid = (rows + block - 1) / block;
    cross_entropy_rows<<<grid, block>>>(logits, labels, loss, rows, cols);
    cudaDeviceSynchronize();
    printf("cross_entropy_rows: %s\n", cudaGetErrorString(cudaGetLastError()));

    cudaFree(logits);
    cudaFree(labels);
    cudaFree(loss);
    return 0;
}
