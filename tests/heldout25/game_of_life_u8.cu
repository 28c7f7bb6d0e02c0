// out[i][j] = 1 if the 8 neighbours of cell (i, j) hold 3 live cells, or 2 and the cell is alive, else 0, cells past the edge dead: one step of Conway's Game of Life on an 8192 x 8192 board of uint8 cells (in PyTorch: F.conv2d of the board with a 3 x 3 kernel of ones with a 0 centre, padding=1, then (n == 3) | (board & (n == 2))); one thread per cell on a 2-D grid of 16 x 16 blocks, an early return outside the board, #pragma unroll on the two 3-step neighbour loops with a bounds test per neighbour, unsigned char in and out.

/* @optiml
   sizes:   H=8192 W=8192               # board 64 MiB in, out 64 MiB out (uint8)
   check:   H=1 W=1; H=3 W=5; H=16 W=16; H=17 W=33; H=100 W=2; H=31 W=47
   board:   in  unsigned char[H*W] range(0,2)
   out:     out unsigned char[H*W]
   launch:  grid=(cdiv(W,16),cdiv(H,16)) block=(16,16)
   flops:   10*H*W
   tol:     1e-5
*/
__global__ void game_of_life_step(const unsigned char* board, unsigned char* out, int H, int W)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= W || y >= H)
        return;

    int alive = 0;
#pragma unroll
    for (int dy = -1; dy <= 1; dy++) {
#pragma unroll
        for (int dx = -1; dx <= 1; dx++) {
            if (dx == 0 && dy == 0)
                continue;
            int yy = y + dy;
            int xx = x + dx;
            if (yy >= 0 && yy < H && xx >= 0 && xx < W)
                alive += board[yy * W + xx];
        }
    }

    unsigned char cell = board[y * W + x];
    out[y * W + x] = (alive == 3 || (cell && alive == 2)) ? 1 : 0;
}
