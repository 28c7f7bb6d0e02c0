"""Hand-written register windows before the schedule existed: a 3x3 four-channel convolution (4096^2) and a 15-tap
1-D convolution (2^25), naive and with each thread's 2, 4 or 8 consecutive outputs sharing a window of the input
that the tap loop slides, at several block shapes; cold L2, CUDA events, median of 30. `python3
bench/window_probe.py` on the GPU machine (bench/results/ir-h200/slide-windows/probe.md)."""
import cupy as cp, json, sys
NAIVE2D = r'''
extern "C" __global__ void k(const float* img, const float* wt, float* out, int C, int H, int W){
 int ox = blockIdx.x*blockDim.x+threadIdx.x, oy = blockIdx.y*blockDim.y+threadIdx.y;
 if (ox>=W||oy>=H) return; float acc=0.f;
 for (int c=0;c<C;++c) for(int ky=0;ky<3;++ky){int iy=oy+ky-1; if(iy<0||iy>=H) continue;
  for(int kx=0;kx<3;++kx){int ix=ox+kx-1; if(ix<0||ix>=W) continue; acc+=img[(c*H+iy)*W+ix]*wt[(c*3+ky)*3+kx];}}
 out[oy*W+ox]=acc;}'''
SLIDE2D = r'''
#define IT %d
extern "C" __global__ void k(const float* __restrict__ img, const float* __restrict__ wt, float* __restrict__ out, int C, int H, int W){
 int first = (blockIdx.x*blockDim.x+threadIdx.x)*IT, oy = blockIdx.y*blockDim.y+threadIdx.y;
 if (first>=W||oy>=H) return; float acc[IT]; for(int j=0;j<IT;++j) acc[j]=0.f;
 long n = (long)C*H*W;
 for (int c=0;c<C;++c) for(int ky=0;ky<3;++ky){int iy=oy+ky-1; if(!(iy<0||iy>=H)){
  long r0 = (long)(c*H+iy)*W - 1;  float win[IT];
  #pragma unroll
  for(int j=0;j<IT;++j){ long e = r0 + first + 0 + j; win[j] = (e>=0&&e<n)? img[e]:0.f; }
  #pragma unroll
  for(int kx=0;kx<3;++kx){ float w = wt[(c*3+ky)*3+kx];
   #pragma unroll
   for(int j=0;j<IT;++j){int ix=first+j+kx-1; if(!(ix<0||ix>=W)) acc[j]+=win[j]*w;}
   #pragma unroll
   for(int j=0;j<IT-1;++j) win[j]=win[j+1];
   if (kx+1<3){ long e = r0 + first + kx + 1 + IT - 1; win[IT-1] = (e>=0&&e<n)? img[e]:0.f; }
  }}}
 for(int j=0;j<IT;++j) if(first+j<W) out[oy*W+first+j]=acc[j];}'''
NAIVE1D = r'''
extern "C" __global__ void k(const float* x, const float* w, float* out, int n, int K){
 int i=blockIdx.x*blockDim.x+threadIdx.x; int no=n-K+1; if(i<no){float acc=0.f; for(int q=0;q<K;q++) acc+=x[i+q]*w[q]; out[i]=acc;}}'''
SLIDE1D = r'''
#define IT %d
extern "C" __global__ void k(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ out, int n, int K){
 int first=(blockIdx.x*blockDim.x+threadIdx.x)*IT; int no=n-K+1; if(first>=no) return;
 float acc[IT], win[IT];
 #pragma unroll
 for(int j=0;j<IT;++j){acc[j]=0.f; int e=first+j; win[j]=(e>=0&&e<n)?x[e]:0.f;}
 for(int q=0;q<K;q++){ float wq=w[q];
  #pragma unroll
  for(int j=0;j<IT;++j) acc[j]+=win[j]*wq;
  #pragma unroll
  for(int j=0;j<IT-1;++j) win[j]=win[j+1];
  if(q+1<K){int e=first+q+1+IT-1; win[IT-1]=(e>=0&&e<n)?x[e]:0.f;}
 }
 #pragma unroll
 for(int j=0;j<IT;++j) if(first+j<no) out[first+j]=acc[j];}'''
flush = cp.empty(2*60*2**20, dtype=cp.uint8)
def t(fn, reps=30):
    fn(); cp.cuda.runtime.deviceSynchronize(); s=[]
    for _ in range(reps):
        flush.fill(0); a,b=cp.cuda.Event(),cp.cuda.Event(); a.record(); fn(); b.record(); b.synchronize(); s.append(cp.cuda.get_elapsed_time(a,b))
    s.sort(); return s[len(s)//2]
res={}
C,H,W=4,4096,4096
img=cp.random.rand(C*H*W,dtype=cp.float32); wt=cp.random.rand(C*9,dtype=cp.float32); out=cp.zeros(H*W,cp.float32)
kn=cp.RawKernel(NAIVE2D,'k'); kn((W//16,H//16),(16,16),(img,wt,out,cp.int32(C),cp.int32(H),cp.int32(W))); ref=out.copy()
res['conv2d naive']=t(lambda: kn((W//16,H//16),(16,16),(img,wt,out,cp.int32(C),cp.int32(H),cp.int32(W))))
for it in (2,4,8):
  for bx,by in ((64,4),(32,8),(128,2),(256,1)):
    ks=cp.RawKernel(SLIDE2D%it,'k'); g=((W//it+bx-1)//bx,(H+by-1)//by)
    out.fill(0); ks(g,(bx,by),(img,wt,out,cp.int32(C),cp.int32(H),cp.int32(W)))
    err=float(cp.abs(out-ref).max())
    res[f'conv2d slide it={it} b={bx}x{by} err={err:.1e}']=t(lambda: ks(g,(bx,by),(img,wt,out,cp.int32(C),cp.int32(H),cp.int32(W))))
n,K=2**25,15
x=cp.random.rand(n,dtype=cp.float32); w=cp.random.rand(K,dtype=cp.float32); o=cp.zeros(n-K+1,cp.float32)
kn=cp.RawKernel(NAIVE1D,'k'); g=((n-K+1+255)//256,); kn(g,(256,),(x,w,o,cp.int32(n),cp.int32(K))); ref=o.copy()
res['conv1d naive']=t(lambda: kn(g,(256,),(x,w,o,cp.int32(n),cp.int32(K))))
for it in (2,4,8,16):
  for bx in (128,256):
    ks=cp.RawKernel(SLIDE1D%it,'k'); g2=(((n-K+1)//it+bx)//bx,)
    o.fill(0); ks(g2,(bx,),(x,w,o,cp.int32(n),cp.int32(K))); err=float(cp.abs(o-ref).max())
    res[f'conv1d slide it={it} b={bx} err={err:.1e}']=t(lambda: ks(g2,(bx,),(x,w,o,cp.int32(n),cp.int32(K))))
bw = 4.8e12
res['conv2d floor']=(C*H*W+H*W)*4/bw*1e3; res['conv1d floor']=(2*n)*4/bw*1e3
print(cp.cuda.runtime.getDeviceProperties(0)['name'])
for k,v in res.items(): print(f'{v*1000:9.1f} us  {k}')
