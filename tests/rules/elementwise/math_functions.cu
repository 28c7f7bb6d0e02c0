// fp32 math for the fast-math knob: nested calls, divisions, sin/cos over one period, powf; and two kernels it
// must leave alone (a strict tolerance, double precision).

/* @optiml
   sizes:  n=4000000
   check:  n=1; n=3; n=1000
   x:      in  float[n] uniform(-8,8)
   y:      out float[n]
   launch: grid=cdiv(n,256) block=256
   tol:    1e-4
*/
__global__ void softplus(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = logf(1.0f + expf(x[i]));
    }
}

/* @optiml
   sizes:  n=4000000
   check:  n=1; n=33
   g:      in  float[n] uniform(-6,6)
   out:    out float[n]
   launch: grid=cdiv(n,256) block=256
   tol:    1e-4
*/
__global__ void silu(const float* g, float* out, int n)
{
    int j = threadIdx.x + blockIdx.x * blockDim.x;
    if (j >= n) return;
    float v = g[j];
    out[j] = v / (1.0f + expf(-v));
}

/* @optiml
   sizes:  n=4000000
   check:  n=1; n=17
   theta:  in  float[n] uniform(-3.14,3.14)
   px:     in  float[n]
   py:     in  float[n]
   qx:     out float[n]
   qy:     out float[n]
   launch: grid=cdiv(n,256) block=256
   tol:    1e-4
*/
__global__ void rotate_points(const float* theta, const float* px, const float* py, float* qx, float* qy, int n)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p < n) {
        float c = cosf(theta[p]);
        float s = sinf(theta[p]);
        qx[p] = c * px[p] - s * py[p];
        qy[p] = s * px[p] + c * py[p];
    }
}

/* @optiml
   sizes:  n=4000000
   check:  n=1; n=9
   x:      in  float[n] uniform(0.5,2)
   y:      out float[n]
   gamma:  1.7
   launch: grid=cdiv(n,256) block=256
   tol:    1e-4
*/
__global__ void gamma_correct(const float* x, float* y, float gamma, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = powf(x[i], 1.0f / gamma);
    }
}

// The default tolerance (1e-5) leaves no room for approximations.
/* @optiml
   sizes:  n=1000000
   check:  n=1
   x:      in  float[n]
   y:      out float[n]
   launch: grid=cdiv(n,256) block=256
*/
__global__ void softplus_strict(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = logf(1.0f + expf(x[i]));
    }
}

// Double precision: exp, log and the division are not fp32.
/* @optiml
   sizes:  n=1000000
   check:  n=1
   x:      in  double[n]
   y:      out double[n]
   launch: grid=cdiv(n,256) block=256
   tol:    1e-4
*/
__global__ void softplus_f64(const double* x, double* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = log(1.0 + exp(x[i])) / 2.0;
    }
}
