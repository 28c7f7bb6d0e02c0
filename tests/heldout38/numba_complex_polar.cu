// mag[i] = |z[i]| = hypot(re, im), phase[i] = arg z[i] = atan2(im, re) in (-pi, pi], z complex64 stored as interleaved (re, im) float pairs: `torch.abs(spec)` and `torch.angle(spec)` of a complex spectrogram (the magnitude and phase of an STFT, as a phase vocoder or a Griffin-Lim initialisation splits them), 16777216 bins; hand-translated from a Numba `@cuda.jit` kernel (`i = cuda.grid(1)`, `if i < z.shape[0]:`, `mag[i] = abs(z[i])`, `phase[i] = cmath.phase(z[i])`), the original kept in comments: `using complex64 = float2;`, the complex array read through `reinterpret_cast<const complex64*>` of the float parameter, `cuda.grid(1)` spelled out as a `long long`, `hypotf` and `atan2f` as Numba lowers `abs` and `cmath.phase`; real and imaginary parts `uniform(-1,1)`.

// Numba original:
//
//   @cuda.jit
//   def polar(z, mag, phase):
//       i = cuda.grid(1)
//       if i < z.shape[0]:
//           mag[i] = abs(z[i])
//           phase[i] = cmath.phase(z[i])

using complex64 = float2;   // numba.complex64: (real, imag)

/* @optiml
   sizes:  n=16777216   # z 128 MiB in (complex64), mag and phase 64 MiB out each; 50 MFLOP (hypot counted as 3, atan2 not counted)
   check:  n=1; n=2; n=255; n=257; n=1000; n=65537
   z:      in  float[2*n]
   mag:    out float[n]
   phase:  out float[n]
   launch: grid=cdiv(n,128) block=128
   flops:  3*n
   tol:    1e-5
*/
__global__ void polar(const float* z, float* mag, float* phase, long long n)
{
    const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;   // cuda.grid(1)
    if (i < n) {                                                                         // i < z.shape[0]
        const complex64 v = reinterpret_cast<const complex64*>(z)[i];
        mag[i] = hypotf(v.x, v.y);                                                       // abs(z[i])
        phase[i] = atan2f(v.y, v.x);                                                     // cmath.phase(z[i])
    }
}
