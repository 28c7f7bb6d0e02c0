"""What the timing protocol's L2 flush costs a kernel: an empty kernel and three reductions of 2-256 MiB, timed
(CUDA events, median of 50) after the evaluator's flush (writing a buffer twice the L2), after a flush that only
reads such a buffer, after both, and with none. `python3 bench/flush_probe.py` on the GPU machine
(bench/results/ir-h200/issue16-full/flush-probe.md)."""
import cupy as cp
src = r'''
extern "C" __global__ void empty(int* c){}
#define IT 16
extern "C" __global__ void count_items(const float* __restrict__ x, int* count, float th, int n){
  int s=0; int first = blockIdx.x*(blockDim.x*IT)+threadIdx.x;
  #pragma unroll
  for(int it=0;it<IT;++it){int i=first+it*blockDim.x; if(i<n && x[i]>th) s+=1;}
  for(int o=16;o>0;o>>=1) s+=__shfl_down_sync(0xffffffff,s,o);
  __shared__ int p[32]; if(threadIdx.x%32==0) p[threadIdx.x/32]=s; __syncthreads();
  if(threadIdx.x==0){for(int w=1;w<blockDim.x/32;++w) s+=p[w]; atomicAdd(count,s);} }
extern "C" __global__ void count_gs4(const float4* __restrict__ x, int* count, float th, int n4){
  int s=0;
  for(int i=blockIdx.x*blockDim.x+threadIdx.x;i<n4;i+=gridDim.x*blockDim.x){float4 v=x[i]; s+=(v.x>th)+(v.y>th)+(v.z>th)+(v.w>th);}
  for(int o=16;o>0;o>>=1) s+=__shfl_down_sync(0xffffffff,s,o);
  __shared__ int p[32]; if(threadIdx.x%32==0) p[threadIdx.x/32]=s; __syncthreads();
  if(threadIdx.x==0){for(int w=1;w<blockDim.x/32;++w) s+=p[w]; atomicAdd(count,s);} }
'''
m = cp.RawModule(code=src)
props = cp.cuda.runtime.getDeviceProperties(0); L2 = props['l2CacheSize']; sms=props['multiProcessorCount']
buf = cp.empty(2*L2, dtype=cp.uint8)
red = cp.ReductionKernel('T x','T y','x','a+b','y=a','0','rd')
sink = cp.empty((), dtype=cp.uint32)
bufu = buf.view(cp.uint32)
def flush_write(): buf.fill(0)
def flush_read(): red(bufu, out=sink)
def flush_both(): buf.fill(0); red(bufu, out=sink)
def noflush(): pass
def t(fn, flush, reps=50):
    for _ in range(3): flush(); fn()
    s=[]
    for _ in range(reps):
        flush(); a,b=cp.cuda.Event(),cp.cuda.Event(); a.record(); fn(); b.record(); b.synchronize(); s.append(cp.cuda.get_elapsed_time(a,b))
    s.sort(); return s[len(s)//2]*1000
cnt = cp.zeros(1, cp.int32)
rows=[]
for n in (2**19, 2**22, 2**24, 2**26):
    x = cp.random.rand(n, dtype=cp.float32)
    kern = {
      'empty': lambda: m.get_function('empty')((1,),(32,),(cnt,)),
      'items16': lambda: m.get_function('count_items')(((n+4095)//4096,),(256,),(x,cnt,cp.float32(0.25),cp.int32(n))),
      'gs4 x4sm': lambda: m.get_function('count_gs4')((sms*4,),(256,),(x,cnt,cp.float32(0.25),cp.int32(n//4))),
      'gs4 x8sm': lambda: m.get_function('count_gs4')((sms*8,),(256,),(x,cnt,cp.float32(0.25),cp.int32(n//4))),
      'cupy sum': lambda: x.sum(),
    }
    for kn, fn in kern.items():
        r = {f: t(fn, fl) for f, fl in (('write',flush_write),('read',flush_read),('write+read',flush_both),('none',noflush))}
        rows.append((n*4/2**20, kn, r))
print(props['name'], 'L2', L2>>20, 'MiB')
print(f"{'MiB':>6} {'kernel':10} " + " ".join(f"{k:>11}" for k in ('write','read','write+read','none')))
for mib, kn, r in rows:
    print(f"{mib:6.0f} {kn:10} " + " ".join(f"{v:9.1f}us" for v in r.values()))
