// call = S N(d1) - X e^(-R T) N(d2), put = X e^(-R T) (1 - N(d2)) - S (1 - N(d1)), d1 = (ln(S/X) + (R + V^2/2) T) / (V sqrt T), d2 = d1 - V sqrt T, N the normal CDF by the Abramowitz-Stegun polynomial (26.2.17): European option prices by Black-Scholes, the CUDA samples' `BlackScholes` (4000000 options, riskless rate 0.02, volatility 0.30, prices `uniform(5,30)`, strikes `uniform(1,100)`, maturities `uniform(0.25,10)` years, the sample's own ranges); the sample's `cndGPU` / `BlackScholesBodyGPU` / `BlackScholesGPU` as written: `__device__ inline` helpers, the polynomial constants `A1`..`A5` and `RSQRT2PI` as `const float` locals, `__fdividef`, `__expf`, `__logf`, `sqrtT = __fdividef(1.0F, rsqrtf(T))`, `if (d > 0) cnd = 1.0f - cnd;`, results written through `float &` reference arguments, and the older samples' one-option grid-stride loop over a fixed 480 x 128 grid (about 65 options a thread).

///////////////////////////////////////////////////////////////////////////////
// Polynomial approximation of cumulative normal distribution function
///////////////////////////////////////////////////////////////////////////////
__device__ inline float cndGPU(float d)
{
    const float       A1 = 0.31938153f;
    const float       A2 = -0.356563782f;
    const float       A3 = 1.781477937f;
    const float       A4 = -1.821255978f;
    const float       A5 = 1.330274429f;
    const float RSQRT2PI = 0.39894228040143267793994605993438f;

    float
    K = __fdividef(1.0f, (1.0f + 0.2316419f * fabsf(d)));

    float
    cnd = RSQRT2PI * __expf(- 0.5f * d * d) *
          (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));

    if (d > 0)
        cnd = 1.0f - cnd;

    return cnd;
}

///////////////////////////////////////////////////////////////////////////////
// Black-Scholes formula for both call and put
///////////////////////////////////////////////////////////////////////////////
__device__ inline void BlackScholesBodyGPU(
    float &CallResult,
    float &PutResult,
    float S, //Stock price
    float X, //Option strike
    float T, //Option years
    float R, //Riskless rate
    float V  //Volatility rate
)
{
    float sqrtT, expRT;
    float d1, d2, CNDD1, CNDD2;

    sqrtT = __fdividef(1.0F, rsqrtf(T));
    d1 = __fdividef(__logf(S / X) + (R + 0.5f * V * V) * T, V * sqrtT);
    d2 = d1 - V * sqrtT;

    CNDD1 = cndGPU(d1);
    CNDD2 = cndGPU(d2);

    //Calculate Call and Put simultaneously
    expRT = __expf(- R * T);
    CallResult = S * CNDD1 - X * expRT * CNDD2;
    PutResult  = X * expRT * (1.0f - CNDD2) - S * (1.0f - CNDD1);
}

////////////////////////////////////////////////////////////////////////////////
//Process an array of optN options on GPU
////////////////////////////////////////////////////////////////////////////////
/* @optiml
   sizes:  optN=4000000   # three inputs and two outputs of 15.26 MiB each; 208 MFLOP (52 an option, the intrinsics not counted)
   check:  optN=1; optN=2; optN=127; optN=129; optN=1000; optN=61441; optN=123457
   d_CallResult:   out float[optN]
   d_PutResult:    out float[optN]
   d_StockPrice:   in  float[optN] uniform(5,30)
   d_OptionStrike: in  float[optN] uniform(1,100)
   d_OptionYears:  in  float[optN] uniform(0.25,10)
   Riskfree:       0.02
   Volatility:     0.30
   launch: grid=480 block=128
   flops:  52*optN
   tol:    1e-3
   atol:   1e-5
*/
__global__ void BlackScholesGPU(
    float *d_CallResult,
    float *d_PutResult,
    float *d_StockPrice,
    float *d_OptionStrike,
    float *d_OptionYears,
    float Riskfree,
    float Volatility,
    int optN
)
{
    //Thread index
    const int      tid = blockDim.x * blockIdx.x + threadIdx.x;
    //Total number of threads in execution grid
    const int THREAD_N = blockDim.x * gridDim.x;

    //No matter how small is execution grid or how large OptN is,
    //exactly OptN indices will be processed with perfect memory coalescing
    for (int opt = tid; opt < optN; opt += THREAD_N)
        BlackScholesBodyGPU(
            d_CallResult[opt],
            d_PutResult[opt],
            d_StockPrice[opt],
            d_OptionStrike[opt],
            d_OptionYears[opt],
            Riskfree,
            Volatility
        );
}
