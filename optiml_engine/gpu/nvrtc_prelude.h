// Pre-included in every NVRTC compile (gpu/compile.py): what nvcc's device code gets from the host headers that
// cuda_runtime.h brings in (<math.h>) or that the user includes (<cmath>, <cfloat>, <climits>, <cstdint> and their
// C names), none of which exist for NVRTC: NVRTC finds those includes empty, this prelude standing for them, while
// nvcc reads the real ones. Each macro is defined only where nothing before has defined it.
#pragma once
#include <cuda/std/cstdint>

// <stdint.h> / <cstdint>: the fixed-width integer types, in the global namespace and in std.
using cuda::std::int8_t;
using cuda::std::int16_t;
using cuda::std::int32_t;
using cuda::std::int64_t;
using cuda::std::uint8_t;
using cuda::std::uint16_t;
using cuda::std::uint32_t;
using cuda::std::uint64_t;
using cuda::std::intptr_t;
using cuda::std::uintptr_t;
namespace std {
using cuda::std::int8_t;
using cuda::std::int16_t;
using cuda::std::int32_t;
using cuda::std::int64_t;
using cuda::std::uint8_t;
using cuda::std::uint16_t;
using cuda::std::uint32_t;
using cuda::std::uint64_t;
using ::size_t;
// <cmath>: the device math functions under std::, as nvcc's <cmath> declares them.
using ::abs; using ::fabs; using ::sqrt; using ::rsqrt; using ::cbrt; using ::exp; using ::exp2; using ::expm1;
using ::log; using ::log2; using ::log10; using ::log1p; using ::pow; using ::sin; using ::cos; using ::tan;
using ::asin; using ::acos; using ::atan; using ::atan2; using ::sinh; using ::cosh; using ::tanh; using ::asinh;
using ::acosh; using ::atanh; using ::erf; using ::erfc; using ::tgamma; using ::lgamma; using ::floor; using ::ceil;
using ::round; using ::trunc; using ::fmod; using ::remainder; using ::fmin; using ::fmax; using ::fma;
using ::hypot; using ::copysign; using ::isnan; using ::isinf; using ::isfinite; using ::signbit;
using ::min; using ::max;
}

// <math.h> / <cmath>
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif
#ifndef NAN
#define NAN __int_as_float(0x7fffffff)
#endif
#ifndef HUGE_VALF
#define HUGE_VALF INFINITY
#endif
#ifndef HUGE_VAL
#define HUGE_VAL __longlong_as_double(0x7ff0000000000000LL)
#endif
#ifndef M_E
#define M_E 2.7182818284590452354
#define M_LOG2E 1.4426950408889634074
#define M_LOG10E 0.43429448190325182765
#define M_LN2 0.69314718055994530942
#define M_LN10 2.30258509299404568402
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.78539816339744830962
#define M_1_PI 0.31830988618379067154
#define M_2_PI 0.63661977236758134308
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.70710678118654752440
#endif

// <float.h> / <cfloat>
#ifndef FLT_MAX
#define FLT_MAX 3.402823466e+38F
#define FLT_MIN 1.175494351e-38F
#define FLT_EPSILON 1.192092896e-07F
#define FLT_TRUE_MIN 1.401298464e-45F
#define DBL_MAX 1.7976931348623158e+308
#define DBL_MIN 2.2250738585072014e-308
#define DBL_EPSILON 2.2204460492503131e-16
#define DBL_TRUE_MIN 4.9406564584124654e-324
#endif

// <limits.h> / <climits>
#ifndef INT_MAX
#define CHAR_BIT 8
#define SCHAR_MIN (-128)
#define SCHAR_MAX 127
#define UCHAR_MAX 255
#define CHAR_MIN SCHAR_MIN
#define CHAR_MAX SCHAR_MAX
#define SHRT_MIN (-32767 - 1)
#define SHRT_MAX 32767
#define USHRT_MAX 65535
#define INT_MIN (-2147483647 - 1)
#define INT_MAX 2147483647
#define UINT_MAX 4294967295U
#define LONG_MIN (-9223372036854775807L - 1)
#define LONG_MAX 9223372036854775807L
#define ULONG_MAX 18446744073709551615UL
#define LLONG_MIN (-9223372036854775807LL - 1)
#define LLONG_MAX 9223372036854775807LL
#define ULLONG_MAX 18446744073709551615ULL
#endif
