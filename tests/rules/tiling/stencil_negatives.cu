// Kernels that stencil_tile must leave alone.

// Radius 3: beyond the rule's halo.
/* @optiml
   sizes:  rows=512 cols=512
   img:    in  float[rows*cols]
   out:    out float[rows*cols]
   launch: grid=(cdiv(cols,16),cdiv(rows,16)) block=(16,16)
*/
__global__ void box7(const float* img, float* out, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols) {
        float sum = 0.0f;
        for (int dr = -3; dr <= 3; dr++) {
            for (int dc = -3; dc <= 3; dc++) {
                int r = min(max(row + dr, 0), rows - 1);
                int c = min(max(col + dc, 0), cols - 1);
                sum += img[r * cols + c];
            }
        }
        out[row * cols + col] = sum;
    }
}

// The neighbour below is read unchecked (the image has a padding row): not provably inside the rows x cols tile.
/* @optiml
   sizes:  rows=512 cols=512
   img:    in  float[(rows+1)*cols]
   out:    out float[rows*cols]
   launch: grid=(cdiv(cols,16),cdiv(rows,16)) block=(16,16)
*/
__global__ void vertical_difference(const float* img, float* out, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols) {
        out[row * cols + col] = img[(row + 1) * cols + col] - img[row * cols + col];
    }
}

// Clamped to the wrong edge (min(r, rows), one past the last row): not proven inside the image.
/* @optiml
   sizes:  rows=512 cols=512
   img:    in  float[(rows+1)*cols]
   out:    out float[rows*cols]
   launch: grid=(cdiv(cols,16),cdiv(rows,16)) block=(16,16)
*/
__global__ void blur_vertical_off_by_one(const float* img, float* out, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols) {
        float sum = 0.0f;
        for (int dr = -1; dr <= 1; dr++) {
            sum += img[min(max(row + dr, 0), rows) * cols + col];
        }
        out[row * cols + col] = sum / 3.0f;
    }
}

// The offset is a parameter, not a constant: the radius is unknown.
/* @optiml
   sizes:  rows=512 cols=512
   img:    in  float[rows*cols]
   out:    out float[rows*cols]
   shift:  2
   launch: grid=(cdiv(cols,16),cdiv(rows,16)) block=(16,16)
*/
__global__ void shifted_average(const float* img, float* out, int shift, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols) {
        int c = min(max(col + shift, 0), cols - 1);
        out[row * cols + col] = 0.5f * (img[row * cols + col] + img[row * cols + c]);
    }
}
