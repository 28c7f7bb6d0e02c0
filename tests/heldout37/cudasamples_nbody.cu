// a_i = sum_j m_j (p_j - p_i) / (|p_j - p_i|^2 + eps^2)^(3/2) over all bodies j (itself included, a zero term), v_i' = (v_i + a_i dt) * damping, p_i' = p_i + v_i' dt (positions as float4 with the mass in w, velocities float4): one integration step of the CUDA samples' `nbody` (all-pairs gravitational N-body, softening 0.1, time step 0.016 as in its first demo, damping 0.995 in place of the demos' 1.0 so that the factor is checked) on 65536 bodies; the sample's `integrateBodies` / `computeBodyAccel` / `bodyBodyInteraction` for float as written: `float4` positions read through `reinterpret_cast` of the float arrays, a `__device__` body-body interaction with its FLOP comments, `rsqrtf` and `invDist * invDist * invDist`, tiles of blockDim bodies staged through the sample's `SharedMemory` wrapper of `extern __shared__` memory (dynamic shared memory, `smem=4096`) between two `__syncthreads()`, `#pragma unroll 128` on the tile loop, velocity updated in place (`vel` `inout`) and the mass carried in `newPos`'s w; the sample assumes numBodies a multiple of the block, here the last tile is padded with massless bodies and the out-of-range threads only help to load tiles. Positions and masses `uniform(0.05,1)` (a cluster in the unit cube), velocities `uniform(-1,1)`.

#define SOFTENING_SQUARED 0.01f

// Utility class used to avoid linker errors with extern
// unsized shared memory arrays with templated type
template <class T>
struct SharedMemory {
  __device__ inline operator T *() {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }

  __device__ inline operator const T *() const {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
};

__device__ float3 bodyBodyInteraction(float3 ai, float4 bi, float4 bj) {
  float3 r;

  // r_ij  [3 FLOPS]
  r.x = bj.x - bi.x;
  r.y = bj.y - bi.y;
  r.z = bj.z - bi.z;

  // distSqr = dot(r_ij, r_ij) + EPS^2  [6 FLOPS]
  float distSqr = r.x * r.x + r.y * r.y + r.z * r.z;
  distSqr += SOFTENING_SQUARED;

  // invDistCube =1/distSqr^(3/2)  [4 FLOPS (2 mul, 1 sqrt, 1 inv)]
  float invDist = rsqrtf(distSqr);
  float invDistCube = invDist * invDist * invDist;

  // s = m_j * invDistCube [1 FLOP]
  float s = bj.w * invDistCube;

  // a_i =  a_i + s * r_ij [6 FLOPS]
  ai.x += r.x * s;
  ai.y += r.y * s;
  ai.z += r.z * s;

  return ai;
}

__device__ float3 computeBodyAccel(float4 bodyPos, const float4 *positions, int numBodies) {
  float4 *sharedPos = SharedMemory<float4>();

  float3 acc = {0.0f, 0.0f, 0.0f};

  int numTiles = (numBodies + blockDim.x - 1) / blockDim.x;

  for (int tile = 0; tile < numTiles; tile++) {
    int j = tile * blockDim.x + threadIdx.x;
    sharedPos[threadIdx.x] = (j < numBodies) ? positions[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);

    __syncthreads();

    // This is the "tile_calculation" from the GPUG3 article.
#pragma unroll 128

    for (unsigned int counter = 0; counter < blockDim.x; counter++) {
      acc = bodyBodyInteraction(acc, bodyPos, sharedPos[counter]);
    }

    __syncthreads();
  }

  return acc;
}

/* @optiml
   sizes:     numBodies=65536   # oldPos 1 MiB in, vel 1 MiB in and out, newPos 1 MiB out; 86 GFLOP (20 a pair)
   check:     numBodies=1; numBodies=2; numBodies=255; numBodies=256; numBodies=257; numBodies=700; numBodies=1000
   newPos:    out   float[4*numBodies]
   oldPos:    in    float[4*numBodies] uniform(0.05,1)
   vel:       inout float[4*numBodies]
   deltaTime: 0.016
   damping:   0.995
   launch:    grid=cdiv(numBodies,256) block=256 smem=4096
   flops:     20*numBodies*numBodies+18*numBodies
   tol:       1e-5
*/
__global__ void integrateBodies(float *__restrict__ newPos,
                                float *__restrict__ oldPos,
                                float *vel,
                                float deltaTime, float damping, int numBodies) {
  float4 *newPos4 = reinterpret_cast<float4 *>(newPos);
  const float4 *oldPos4 = reinterpret_cast<const float4 *>(oldPos);
  float4 *vel4 = reinterpret_cast<float4 *>(vel);

  int index = blockIdx.x * blockDim.x + threadIdx.x;

  float4 position = (index < numBodies) ? oldPos4[index] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);

  float3 accel = computeBodyAccel(position, oldPos4, numBodies);

  if (index >= numBodies) {
    return;
  }

  // acceleration = force / mass;
  // new velocity = old velocity + acceleration * deltaTime
  // note we factor out the body's mass from the equation, here and in
  // bodyBodyInteraction
  // (because they cancel out).  Thus here force == acceleration
  float4 velocity = vel4[index];

  velocity.x += accel.x * deltaTime;
  velocity.y += accel.y * deltaTime;
  velocity.z += accel.z * deltaTime;

  velocity.x *= damping;
  velocity.y *= damping;
  velocity.z *= damping;

  // new position = old position + velocity * deltaTime
  position.x += velocity.x * deltaTime;
  position.y += velocity.y * deltaTime;
  position.z += velocity.z * deltaTime;

  // store new position and velocity
  newPos4[index] = position;
  vel4[index] = velocity;
}
