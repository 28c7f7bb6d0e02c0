// Qr[x] += sum_k phiMag[k] cos(2 pi (kx[k] X + ky[k] Y + kz[k] Z)), Qi[x] += sum_k phiMag[k] sin(2 pi (kx[k] X + ky[k] Y + kz[k] Z)) with (X, Y, Z) = (x[x], y[x], z[x]): the Q matrix of Parboil's `mri-q` (the precomputed Q of non-Cartesian MRI reconstruction; every voxel against every k-space sample) for a 128 x 128 x 128 volume (2097152 voxels) and 2048 k-space samples; Parboil's `ComputeQ_GPU` as written, with the samples read from global memory in one launch (Parboil copies chunks of 1024 samples into a `__constant__` array of `kValues` structs and launches once a chunk, accumulating into Qr and Qi: here the four fields are four arrays and numK is one chunk): `#define PIx2` and `KERNEL_Q_THREADS_PER_BLOCK 256` (used for the index in place of `blockDim.x`), `float sX; float sY; ...` register copies, `sQr = Qr[xIndex]` (the accumulation onto Qr and Qi, `inout`), the first sample peeled off when numK is odd (`if (numK % 2)`) and the loop unrolled by two with `kIndex1`, `cos` and `sin`; Parboil pads the voxels to a multiple of the block, here a guard `if (xIndex < numX)` does; voxel coordinates `uniform(-0.5,0.5)`, k-space coordinates `uniform(-8,8)`, |phi|^2 `uniform(0,1)`.

#define PI   3.1415926535897932384626433832795029f
#define PIx2 6.2831853071795864769252867665590058f

#define KERNEL_Q_THREADS_PER_BLOCK 256

/* @optiml
   sizes:  numK=2048 numX=2097152   # x, y, z 8 MiB in each, Qr and Qi 8 MiB in and out each, k-space 32 KiB in; 51.5 GFLOP (12 a pair, sin and cos not counted)
   check:  numK=1 numX=1; numK=2 numX=3; numK=7 numX=255; numK=64 numX=257; numK=333 numX=1000; numK=1 numX=513
   kx:     in    float[numK] uniform(-8,8)
   ky:     in    float[numK] uniform(-8,8)
   kz:     in    float[numK] uniform(-8,8)
   phiMag: in    float[numK] uniform(0,1)
   x:      in    float[numX] uniform(-0.5,0.5)
   y:      in    float[numX] uniform(-0.5,0.5)
   z:      in    float[numX] uniform(-0.5,0.5)
   Qr:     inout float[numX]
   Qi:     inout float[numX]
   launch: grid=cdiv(numX,256) block=256
   flops:  12*numX*numK
   tol:    1e-5
*/
__global__ void
ComputeQ_GPU(int numK, int numX,
             const float* __restrict__ kx, const float* __restrict__ ky,
             const float* __restrict__ kz, const float* __restrict__ phiMag,
             float* x, float* y, float* z, float* Qr , float* Qi)
{
  float sX;
  float sY;
  float sZ;
  float sQr;
  float sQi;

  // Determine the element of the X arrays computed by this thread
  int xIndex = blockIdx.x*KERNEL_Q_THREADS_PER_BLOCK + threadIdx.x;

  if (xIndex < numX) {
    // Read block's X values from global mem to shared mem
    sX = x[xIndex];
    sY = y[xIndex];
    sZ = z[xIndex];
    sQr = Qr[xIndex];
    sQi = Qi[xIndex];

    // Loop over all elements of K to compute a partial value for X.
    int kIndex = 0;
    if (numK % 2) {
      float expArg = PIx2 * (kx[0] * sX + ky[0] * sY + kz[0] * sZ);
      sQr += phiMag[0] * cos(expArg);
      sQi += phiMag[0] * sin(expArg);
      kIndex++;
    }

    for (; kIndex < numK; kIndex += 2) {
      float expArg = PIx2 * (kx[kIndex] * sX +
                             ky[kIndex] * sY +
                             kz[kIndex] * sZ);
      sQr += phiMag[kIndex] * cos(expArg);
      sQi += phiMag[kIndex] * sin(expArg);

      int kIndex1 = kIndex + 1;
      float expArg1 = PIx2 * (kx[kIndex1] * sX +
                              ky[kIndex1] * sY +
                              kz[kIndex1] * sZ);
      sQr += phiMag[kIndex1] * cos(expArg1);
      sQi += phiMag[kIndex1] * sin(expArg1);
    }

    Qr[xIndex] = sQr;
    Qi[xIndex] = sQi;
  }
}
