// temp_dst[r][c] = T + (step / Cap) * (power[r][c] + (T[S] + T[N] - 2 T) / Ry + (T[E] + T[W] - 2 T) / Rx + (80 - T) / Rz) with T = temp_src[r][c] and the four neighbours clamped to the grid (an edge cell takes itself for its missing neighbour): one time step of Rodinia's `hotspot` (the thermal simulation of a 16 mm x 16 mm chip, explicit 5-point update with an ambient term) on a 4096 x 4096 grid, pyramid height 1; Rodinia's `calculate_temp` as written: `#define BLOCK_SIZE 16` and 16 x 16 blocks that overlap by a border of `iteration` cells and each compute the inner 14 x 14 cells, three `__shared__ float [BLOCK_SIZE][BLOCK_SIZE]` tiles (temperature, power, result) with `__syncthreads()`, Rodinia's `IN_RANGE` macro, `validYmin` / `validXmax` clamps of the neighbour indices, the `for (i < iteration)` loop with its `computed` flag and `break`, `amb_temp = 80.0`, `2.0*` double literals, and Rodinia's own scalar list (`Cap`, `Rx`, `Ry`, `Rz`, `step` as its host computes them for the 1024 x 1024 chip of its standard input, kept at every size so that a step moves the temperature alike; `time_elapsed` unused); temperatures `uniform(320,345)` (Kelvin, as in Rodinia's temp files), power `uniform(0,1)`.

#define BLOCK_SIZE 16
#define STR_SIZE 256

#define IN_RANGE(x, min, max)   ((x)>=(min) && (x)<=(max))
#define CLAMP_RANGE(x, min, max) x = (x<(min)) ? min : ((x>(max)) ? max : x )
#define MIN(a, b) ((a)<=(b) ? (a) : (b))

/* @optiml
   sizes:   grid_rows=4096 grid_cols=4096   # power and temp_src 64 MiB in each, temp_dst 64 MiB out; 235 MFLOP
   check:   grid_rows=1 grid_cols=1; grid_rows=2 grid_cols=3; grid_rows=14 grid_cols=14; grid_rows=15 grid_cols=29; grid_rows=33 grid_cols=17; grid_rows=1 grid_cols=40; grid_rows=64 grid_cols=100
   power:        in  float[grid_rows*grid_cols] uniform(0,1)
   temp_src:     in  float[grid_rows*grid_cols] uniform(320,345)
   temp_dst:     out float[grid_rows*grid_cols]
   iteration:    1
   border_cols:  1
   border_rows:  1
   Cap:          1.0681154e-07
   Rx:           10.0
   Ry:           10.0
   Rz:           20480.0
   step:         1.4583334e-07
   time_elapsed: 0.001
   launch:  grid=(cdiv(grid_cols,14),cdiv(grid_rows,14)) block=(16,16)
   flops:   14*grid_rows*grid_cols
   tol:     1e-5
*/
__global__ void calculate_temp(int iteration,  //number of iteration
                               float *power,   //power input
                               float *temp_src,    //temperature input/output
                               float *temp_dst,    //temperature input/output
                               int grid_cols,  //Col of grid
                               int grid_rows,  //Row of grid
                               int border_cols,  // border offset 
                               int border_rows,  // border offset
                               float Cap,      //Capacitance
                               float Rx, 
                               float Ry, 
                               float Rz, 
                               float step, 
                               float time_elapsed){
	
        __shared__ float temp_on_cuda[BLOCK_SIZE][BLOCK_SIZE];
        __shared__ float power_on_cuda[BLOCK_SIZE][BLOCK_SIZE];
        __shared__ float temp_t[BLOCK_SIZE][BLOCK_SIZE]; // saving temparary temperature result

	float amb_temp = 80.0;
        float step_div_Cap;
        float Rx_1,Ry_1,Rz_1;
        
	int bx = blockIdx.x;
        int by = blockIdx.y;

	int tx=threadIdx.x;
	int ty=threadIdx.y;
	
	step_div_Cap=step/Cap;
	
	Rx_1=1/Rx;
	Ry_1=1/Ry;
	Rz_1=1/Rz;
	
        // each block finally computes result for a small block
        // after N iterations. 
        // it is the non-overlapping small blocks that cover 
        // all the input data

        // calculate the small block size
	int small_block_rows = BLOCK_SIZE-iteration*2;//EXPAND_RATE
	int small_block_cols = BLOCK_SIZE-iteration*2;//EXPAND_RATE

        // calculate the boundary for the block according to 
        // the boundary of its small block
        int blkY = small_block_rows*by-border_rows;
        int blkX = small_block_cols*bx-border_cols;
        int blkYmax = blkY+BLOCK_SIZE-1;
        int blkXmax = blkX+BLOCK_SIZE-1;

        // calculate the global thread coordination
	int yidx = blkY+ty;
	int xidx = blkX+tx;

        // load data if it is within the valid input range
	int loadYidx=yidx, loadXidx=xidx;
        int index = grid_cols*loadYidx+loadXidx;
       
	if(IN_RANGE(loadYidx, 0, grid_rows-1) && IN_RANGE(loadXidx, 0, grid_cols-1)){
            temp_on_cuda[ty][tx] = temp_src[index];  // Load the temperature data from global memory to shared memory
            power_on_cuda[ty][tx] = power[index];// Load the power data from global memory to shared memory
	}
	__syncthreads();

        // effective range within this block that falls within 
        // the valid range of the input data
        // used to rule out computation outside the boundary.
        int validYmin = (blkY < 0) ? -blkY : 0;
        int validYmax = (blkYmax > grid_rows-1) ? BLOCK_SIZE-1-(blkYmax-grid_rows+1) : BLOCK_SIZE-1;
        int validXmin = (blkX < 0) ? -blkX : 0;
        int validXmax = (blkXmax > grid_cols-1) ? BLOCK_SIZE-1-(blkXmax-grid_cols+1) : BLOCK_SIZE-1;

        int N = ty-1;
        int S = ty+1;
        int W = tx-1;
        int E = tx+1;
        
        N = (N < validYmin) ? validYmin : N;
        S = (S > validYmax) ? validYmax : S;
        W = (W < validXmin) ? validXmin : W;
        E = (E > validXmax) ? validXmax : E;

        bool computed;
        for (int i=0; i<iteration ; i++){ 
            computed = false;
            if( IN_RANGE(tx, i+1, BLOCK_SIZE-i-2) &&  \
                  IN_RANGE(ty, i+1, BLOCK_SIZE-i-2) &&  \
                  IN_RANGE(tx, validXmin, validXmax) && \
                  IN_RANGE(ty, validYmin, validYmax) ) {
                  computed = true;
                  temp_t[ty][tx] =   temp_on_cuda[ty][tx] + step_div_Cap * (power_on_cuda[ty][tx] + 
	       	         (temp_on_cuda[S][tx] + temp_on_cuda[N][tx] - 2.0*temp_on_cuda[ty][tx]) * Ry_1 + 
		             (temp_on_cuda[ty][E] + temp_on_cuda[ty][W] - 2.0*temp_on_cuda[ty][tx]) * Rx_1 + 
		             (amb_temp - temp_on_cuda[ty][tx]) * Rz_1);
	
            }
            __syncthreads();
            if(i==iteration-1)
                break;
            if(computed)	 //Assign the computation range
                temp_on_cuda[ty][tx]= temp_t[ty][tx];
            __syncthreads();
          }

      // update the global memory
      // after the last iteration, only threads coordinated within the 
      // small block perform the calculation and switch on ``computed''
      if (computed){
          temp_dst[index]= temp_t[ty][tx];		
      }
}
