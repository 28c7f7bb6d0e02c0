// The CPU emulator's CUDA shim (optiml_engine/gpu/emulate.py): force-included (g++ -include) before a device-only
// compile unit, so that the unit's kernel compiles with g++ and runs on the host.
//
// Execution model: the blocks of a launch run one at a time. Within a block, either every CUDA thread is an OS
// thread ("cooperative" mode: __syncthreads is a barrier of the block, warp intrinsics meet at a barrier of the
// warp), or, for kernels whose threads never synchronize, the threads run one after another on the caller's thread.
// __shared__ is `static`: one copy, which the block's threads share because blocks never overlap. A kernel of
// thread-block clusters (`__cluster_dims__`) runs a cluster's blocks at once, every thread of them an OS thread, and
// emulate.py gives each of its `__shared__` arrays a copy per block of the cluster (block_copy below).
//
// The CUDA headers a unit includes (cuda_runtime.h, cuda_fp16.h, cuda_bf16.h, math_constants.h...) resolve to empty
// stand-ins that emulate.py writes next to this file: everything they would declare is declared here.
//
// Compile time matters (every kernel is one g++ run): only light headers are included. Threads, locks and
// condition variables are POSIX; atomics are g++'s __atomic builtins (<atomic> alone costs a third of a second).

#pragma once

// Standard headers first (before any macro below can change what they say).
#include <bit>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <new>
#include <type_traits>
#include <utility>
#include <math.h>      // libstdc++'s wrapper: the float overloads of <cmath> (sqrt(float), exp(float)...) in the
                       // global namespace, where CUDA's math headers put them
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

// ---------------------------------------------------------------------------------------------------------------
// Execution state, barriers and the launcher's plumbing

namespace optiml {

struct Abort {};   // unwinds an emulated thread when the launch fails

inline bool g_abort = false;                 // accessed with __atomic builtins
inline pthread_mutex_t g_error_mutex = PTHREAD_MUTEX_INITIALIZER;
inline char g_error[1024];
inline double g_barrier_timeout_s = 30.0;

inline bool aborted() { return __atomic_load_n(&g_abort, __ATOMIC_ACQUIRE); }

inline void record_error(const char* message) {
    pthread_mutex_lock(&g_error_mutex);
    if (g_error[0] == 0) std::snprintf(g_error, sizeof g_error, "%s", message);
    pthread_mutex_unlock(&g_error_mutex);
    __atomic_store_n(&g_abort, true, __ATOMIC_RELEASE);
}

[[noreturn]] inline void fail(const char* message) {
    record_error(message);
    throw Abort{};
}

[[noreturn]] inline void fail_assert(const char* expression, const char* file, int line) {
    char text[600];
    std::snprintf(text, sizeof text, "%s:%d: device assertion failed: %s", file, line, expression);
    fail(text);
}

inline double seconds_now() {
    timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return double(now.tv_sec) + 1e-9 * double(now.tv_nsec);
}

// A barrier whose waits give up when the launch aborts, and report a deadlock after g_barrier_timeout_s (when
// `timed`): a barrier some thread never reaches, or a warp intrinsic called by only part of the warp.
// Lock-free: one 64-bit word holds the threads expected (high half) and arrived (low half), so that arrivals and
// departures (arrive_and_drop) never race; waiters sleep on a futex on the phase number. A thread that arrives
// yields the processor a few times before it sleeps: a block has many more threads than the host has cores, and
// the threads it waits for need the core more than it needs a sleep and a wake-up.
class Barrier {
public:
    Barrier(int count, const char* what, bool timed = true)
        : state_((unsigned long long)(unsigned)count << 32), what_(what), timed_(timed) {}
    Barrier(const Barrier&) = delete;
    Barrier& operator=(const Barrier&) = delete;

    void arrive_and_wait() {
        const unsigned phase = __atomic_load_n(&phase_, __ATOMIC_ACQUIRE);
        if (update(0, 1)) return;
        for (int spin = 0; spin < kYields; spin++) {
            if (__atomic_load_n(&phase_, __ATOMIC_ACQUIRE) != phase) return;
            sched_yield();
        }
        const double started = seconds_now();
        while (__atomic_load_n(&phase_, __ATOMIC_ACQUIRE) == phase) {
            timespec slice{0, 50 * 1000 * 1000};
            syscall(SYS_futex, &phase_, FUTEX_WAIT_PRIVATE, phase, &slice, nullptr, 0);
            if (__atomic_load_n(&phase_, __ATOMIC_ACQUIRE) != phase) return;
            if (aborted()) throw Abort{};
            if (timed_ && seconds_now() - started > g_barrier_timeout_s) {
                char text[500];
                std::snprintf(text, sizeof text,
                              "deadlock: threads waited more than %g s at %s for threads that never arrived (a "
                              "barrier inside a branch that not every thread takes, or a warp intrinsic called by "
                              "only part of the warp, which the emulator does not support)",
                              g_barrier_timeout_s, what_);
                fail(text);
            }
        }
    }

    // The calling thread leaves: it counts as arrived in this phase and is not expected in later ones.
    void arrive_and_drop() { update(1, 0); }

    void (*on_complete)(void*) = nullptr;    // run by the last arrival, before anyone is released
    void* on_complete_arg = nullptr;

private:
    static constexpr int kYields = 16;

    // Removes `leaving` from the expected count and adds `arriving` arrivals; true when that completed the phase
    // (the caller was the last): then the phase has been advanced and the waiters woken.
    bool update(unsigned leaving, unsigned arriving) {
        unsigned long long state = __atomic_load_n(&state_, __ATOMIC_RELAXED), next;
        bool last;
        do {
            const unsigned expected = unsigned(state >> 32) - leaving;
            const unsigned arrived = unsigned(state) + arriving;
            last = arrived > 0 && arrived >= expected;
            next = (unsigned long long)expected << 32 | (last ? 0u : arrived);
        } while (!__atomic_compare_exchange_n(&state_, &state, next, true, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED));
        if (last) {
            if (on_complete) on_complete(on_complete_arg);
            __atomic_fetch_add(&phase_, 1u, __ATOMIC_RELEASE);
            syscall(SYS_futex, &phase_, FUTEX_WAKE_PRIVATE, INT_MAX, nullptr, nullptr, 0);
        }
        return last;
    }

    unsigned long long state_;
    unsigned phase_ = 0;
    const char* what_;
    bool timed_;
};

constexpr int kSlotBytes = 32;

// One lane's contribution to a warp intrinsic, tagged with the intrinsic's sequence number in the warp (lanes that
// have exited leave stale tags, so they are never read as taking part).
struct Slot {
    unsigned tag;
    alignas(16) unsigned char bytes[kSlotBytes];
};

struct WarpState {
    explicit WarpState(int lanes)
        : barrier(lanes, "a warp intrinsic (__syncwarp, __shfl_*_sync, __ballot_sync...)"), lanes(lanes),
          active(lanes == 32 ? 0xffffffffu : ((1u << lanes) - 1u)) {}
    Barrier barrier;
    int lanes;
    unsigned active;                              // lanes that have not exited (__atomic builtins)
    Slot slots[2][32] = {};                       // double-buffered: intrinsic k uses slots[k % 2]

    unsigned active_lanes() const { return __atomic_load_n(&active, __ATOMIC_ACQUIRE); }
};

struct BlockState {
    explicit BlockState(int threads) : barrier(threads, "__syncthreads"), warp_count((threads + 31) / 32) {
        warps = static_cast<WarpState*>(::operator new(sizeof(WarpState) * warp_count));
        for (int w = 0; w < warp_count; w++) new (&warps[w]) WarpState(threads - 32 * w < 32 ? threads - 32 * w : 32);
    }
    ~BlockState() {
        for (int w = 0; w < warp_count; w++) warps[w].~WarpState();
        ::operator delete(warps);
    }
    BlockState(const BlockState&) = delete;
    BlockState& operator=(const BlockState&) = delete;
    Barrier barrier;
    int warp_count;
    WarpState* warps;
    int sync_true[3] = {0, 0, 0};                 // __syncthreads_count/and/or, three calls in rotation
    int sync_all[3] = {0, 0, 0};
};

inline thread_local BlockState* t_block = nullptr;
inline thread_local WarpState* t_warp = nullptr;
inline thread_local int t_lane = 0;
inline thread_local unsigned t_sync_calls = 0;
inline thread_local unsigned t_warp_calls = 0;

inline BlockState& block() {
    if (t_block == nullptr) fail("__syncthreads outside cooperative mode (internal: run with threads=True)");
    return *t_block;
}

inline WarpState& warp() {
    if (t_warp == nullptr) fail("a warp intrinsic outside cooperative mode (internal: run with threads=True)");
    return *t_warp;
}

// Thread-block clusters: the blocks of one cluster run at once. Each `__shared__` array of such a kernel is an
// array of kMaxClusterBlocks copies (emulate.py rewrites its declaration), the block of rank r using copy r;
// __cluster_map_shared_rank finds the copies an address lies in and moves it to another block's copy.
constexpr int kMaxClusterBlocks = 8;     // CUDA's portable cluster size

inline thread_local int t_cluster_rank = 0;
inline thread_local Barrier* t_cluster = nullptr;
inline thread_local bool t_cluster_arrived = false;

struct SharedCopies {
    char* first;
    unsigned long long bytes;            // of one block's copy
};

inline SharedCopies g_shared_copies[256];
inline int g_shared_copies_count = 0;
inline pthread_mutex_t g_shared_copies_mutex = PTHREAD_MUTEX_INITIALIZER;

template <class A, std::size_t K>
A& block_copy(A (&copies)[K]) {
    static_assert(K == kMaxClusterBlocks);
    char* first = reinterpret_cast<char*>(&copies[0]);
    pthread_mutex_lock(&g_shared_copies_mutex);
    bool known = false;
    for (int i = 0; i < g_shared_copies_count && !known; i++) known = g_shared_copies[i].first == first;
    if (!known && g_shared_copies_count < 256) g_shared_copies[g_shared_copies_count++] = {first, sizeof(A)};
    pthread_mutex_unlock(&g_shared_copies_mutex);
    return copies[t_cluster_rank];
}

inline void* peer_copy(const void* address, unsigned rank) {
    if (t_cluster == nullptr) fail("__cluster_map_shared_rank in a kernel without __cluster_dims__");
    const char* at = static_cast<const char*>(address);
    pthread_mutex_lock(&g_shared_copies_mutex);
    const int count = g_shared_copies_count;
    pthread_mutex_unlock(&g_shared_copies_mutex);
    for (int i = 0; i < count; i++) {
        const SharedCopies& c = g_shared_copies[i];
        if (at < c.first || at >= c.first + kMaxClusterBlocks * c.bytes) continue;
        const unsigned long long offset = (unsigned long long)(at - c.first) % c.bytes;
        return c.first + rank * c.bytes + offset;
    }
    fail("__cluster_map_shared_rank of an address outside the block's __shared__ arrays");
}

// Every lane of the warp puts `value` in its slot; `combine(read)` computes the lane's result, where read(i, T&)
// copies lane i's value (false for a lane that exited or does not exist). One barrier phase per intrinsic: the slots
// are double-buffered, and a lane can only get two intrinsics ahead (and write the slots being read) once every
// lane has passed the intervening barrier, that is, has done its reading.
template <class T, class Combine>
auto warp_collective(const T& value, Combine combine) {
    static_assert(sizeof(T) <= kSlotBytes && std::is_trivially_copyable_v<T>,
                  "the emulator's warp intrinsics take values of at most 32 bytes");
    WarpState& w = warp();
    const unsigned call = ++t_warp_calls;
    Slot* slots = w.slots[call & 1u];
    std::memcpy(slots[t_lane].bytes, &value, sizeof(T));
    slots[t_lane].tag = call;
    w.barrier.arrive_and_wait();
    auto read = [&](int lane, T& out) {
        if (lane < 0 || lane >= w.lanes || slots[lane].tag != call) return false;
        std::memcpy(static_cast<void*>(&out), slots[lane].bytes, sizeof(T));
        return true;
    };
    return combine(read);
}

template <class T, class Source>
T warp_shuffle(const T& value, Source source) {
    return warp_collective(value, [&](auto read) {
        T result = value;
        const int lane = source(t_lane);
        if (lane >= 0) read(lane, result);
        return result;
    });
}

struct Votes {
    unsigned yes, voters;
};

inline Votes vote(unsigned mask, int predicate) {
    return warp_collective(predicate, [&](auto read) {
        Votes votes{0, 0};
        for (int lane = 0; lane < 32; lane++) {
            int value;
            if ((mask >> lane & 1u) && read(lane, value)) {
                votes.voters |= 1u << lane;
                if (value) votes.yes |= 1u << lane;
            }
        }
        return votes;
    });
}

inline int sync_count(int predicate, int* participants) {
    BlockState& b = block();
    const unsigned call = t_sync_calls++;
    const int slot = call % 3, next = (call + 1) % 3;
    __atomic_store_n(&b.sync_true[next], 0, __ATOMIC_RELAXED);   // last used two calls ago: everyone has read it
    __atomic_store_n(&b.sync_all[next], 0, __ATOMIC_RELAXED);
    __atomic_fetch_add(&b.sync_true[slot], predicate != 0, __ATOMIC_RELAXED);
    __atomic_fetch_add(&b.sync_all[slot], 1, __ATOMIC_RELAXED);
    b.barrier.arrive_and_wait();
    *participants = __atomic_load_n(&b.sync_all[slot], __ATOMIC_RELAXED);
    return __atomic_load_n(&b.sync_true[slot], __ATOMIC_RELAXED);
}

// Dynamic shared memory: `extern __shared__ T name[];` becomes a pointer to this buffer (emulate.py rewrites it).
constexpr unsigned long long kDynamicSmemBytes = 256 * 1024;
alignas(128) inline unsigned char dynamic_smem[kDynamicSmemBytes];

}  // namespace optiml

#define optiml_dynamic_smem (::optiml::dynamic_smem)

// ---------------------------------------------------------------------------------------------------------------
// Qualifiers and built-in variables

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__
#define __shared__ static
#define __constant__
#define __managed__
#define __grid_constant__
#define __launch_bounds__(...)
#define __maxnreg__(...)
#define __cluster_dims__(...)
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __attribute__((aligned(n)))
#define __cudart_builtin__
#define __device_builtin__
#define __CUDA_ALIGN__(n) __attribute__((aligned(n)))
// __restrict__ is a g++ keyword already (the same as __restrict).
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
#define __CUDA_ARCH__ 900
#define __CUDACC_VER_MAJOR__ 13
#define __CUDACC_VER_MINOR__ 0
#define CUDART_VERSION 13000
#define OPTIML_EMULATOR 1
#undef assert
#define assert(expression) ((expression) ? void(0) : ::optiml::fail_assert(#expression, __FILE__, __LINE__))

// ---------------------------------------------------------------------------------------------------------------
// Vector types (CUDA's alignments)

#define OPTIML_VEC1(name, T, align)                                                                      \
    struct __attribute__((aligned(align))) name { T x; };                                                \
    inline name make_##name(T x) { return name{x}; }
#define OPTIML_VEC2(name, T, align)                                                                      \
    struct __attribute__((aligned(align))) name { T x, y; };                                             \
    inline name make_##name(T x, T y) { return name{x, y}; }
#define OPTIML_VEC3(name, T, align)                                                                      \
    struct __attribute__((aligned(align))) name { T x, y, z; };                                          \
    inline name make_##name(T x, T y, T z) { return name{x, y, z}; }
#define OPTIML_VEC4(name, T, align)                                                                      \
    struct __attribute__((aligned(align))) name { T x, y, z, w; };                                       \
    inline name make_##name(T x, T y, T z, T w) { return name{x, y, z, w}; }
#define OPTIML_VECS(prefix, T, a2, a4)                                                                   \
    OPTIML_VEC1(prefix##1, T, sizeof(T)) OPTIML_VEC2(prefix##2, T, a2)                                  \
    OPTIML_VEC3(prefix##3, T, sizeof(T)) OPTIML_VEC4(prefix##4, T, a4)

OPTIML_VECS(char, signed char, 2, 4)
OPTIML_VECS(uchar, unsigned char, 2, 4)
OPTIML_VECS(short, short, 4, 8)
OPTIML_VECS(ushort, unsigned short, 4, 8)
OPTIML_VECS(int, int, 8, 16)
OPTIML_VECS(uint, unsigned int, 8, 16)
OPTIML_VECS(long, long, 16, 16)
OPTIML_VECS(ulong, unsigned long, 16, 16)
OPTIML_VECS(longlong, long long, 16, 16)
OPTIML_VECS(ulonglong, unsigned long long, 16, 16)
OPTIML_VECS(float, float, 8, 16)
OPTIML_VECS(double, double, 16, 16)
OPTIML_VEC4(double4_16a, double, 16)
OPTIML_VEC4(double4_32a, double, 32)
OPTIML_VEC4(long4_16a, long, 16)
OPTIML_VEC4(long4_32a, long, 32)
OPTIML_VEC4(longlong4_16a, long long, 16)
OPTIML_VEC4(longlong4_32a, long long, 32)
OPTIML_VEC4(ulonglong4_16a, unsigned long long, 16)
OPTIML_VEC4(ulonglong4_32a, unsigned long long, 32)

struct dim3 {
    unsigned int x, y, z;
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return uint3{x, y, z}; }
};

inline thread_local uint3 threadIdx{0, 0, 0};
inline thread_local uint3 blockIdx{0, 0, 0};
inline thread_local dim3 blockDim;
inline thread_local dim3 gridDim;
constexpr int warpSize = 32;

// ---------------------------------------------------------------------------------------------------------------
// Synchronization and warp intrinsics

inline void __syncthreads() { ::optiml::block().barrier.arrive_and_wait(); }
inline int __syncthreads_count(int predicate) {
    int participants;
    return ::optiml::sync_count(predicate, &participants);
}
inline int __syncthreads_and(int predicate) {
    int participants;
    return ::optiml::sync_count(predicate, &participants) == participants;
}
inline int __syncthreads_or(int predicate) {
    int participants;
    return ::optiml::sync_count(predicate, &participants) > 0;
}
inline void __syncwarp(unsigned = 0xffffffffu) { ::optiml::warp().barrier.arrive_and_wait(); }
// The cluster barrier's arrival is recorded and made at the wait: a thread between the two only delays the others.
inline void __cluster_barrier_arrive() { ::optiml::t_cluster_arrived = true; }
inline void __cluster_barrier_wait() {
    if (::optiml::t_cluster == nullptr) ::optiml::fail("__cluster_barrier_wait in a kernel without __cluster_dims__");
    if (!::optiml::t_cluster_arrived) ::optiml::fail("__cluster_barrier_wait without __cluster_barrier_arrive");
    ::optiml::t_cluster_arrived = false;
    ::optiml::t_cluster->arrive_and_wait();
}
// Only the void* form: CUDA's template overload is not in NVRTC's headers.
inline void* __cluster_map_shared_rank(void* address, unsigned rank) { return ::optiml::peer_copy(address, rank); }
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __nanosleep(unsigned) { sched_yield(); }
inline long long clock64() { return (long long)(::optiml::seconds_now() * 1e9); }
inline unsigned long long __globaltimer() { return (unsigned long long)clock64(); }
[[noreturn]] inline void __trap() { ::optiml::fail("__trap() called"); }
[[noreturn]] inline void __brkpt() { ::optiml::fail("__brkpt() called"); }

inline unsigned __activemask() { return ::optiml::warp().active_lanes(); }

template <class T>
T __shfl_sync(unsigned, T var, int src_lane, int width = warpSize) {
    return ::optiml::warp_shuffle(var, [&](int lane) { return (lane & ~(width - 1)) + (src_lane & (width - 1)); });
}
template <class T>
T __shfl_up_sync(unsigned, T var, unsigned delta, int width = warpSize) {
    return ::optiml::warp_shuffle(var, [&](int lane) {
        return (lane & (width - 1)) >= (int)delta ? lane - (int)delta : -1;
    });
}
template <class T>
T __shfl_down_sync(unsigned, T var, unsigned delta, int width = warpSize) {
    return ::optiml::warp_shuffle(var, [&](int lane) {
        return (lane & (width - 1)) + (int)delta < width ? lane + (int)delta : -1;
    });
}
template <class T>
T __shfl_xor_sync(unsigned, T var, int lane_mask, int width = warpSize) {
    return ::optiml::warp_shuffle(var, [&](int lane) {
        const int source = lane ^ lane_mask;
        return (source & ~(width - 1)) == (lane & ~(width - 1)) ? source : -1;
    });
}

inline unsigned __ballot_sync(unsigned mask, int predicate) { return ::optiml::vote(mask, predicate).yes; }
inline int __any_sync(unsigned mask, int predicate) { return ::optiml::vote(mask, predicate).yes != 0; }
inline int __all_sync(unsigned mask, int predicate) {
    const ::optiml::Votes votes = ::optiml::vote(mask, predicate);
    return votes.yes == votes.voters;
}
inline int __uni_sync(unsigned mask, int predicate) {
    const ::optiml::Votes votes = ::optiml::vote(mask, predicate);
    return votes.yes == 0 || votes.yes == votes.voters;
}

template <class T>
unsigned __match_any_sync(unsigned mask, T value) {
    return ::optiml::warp_collective(value, [&](auto read) {
        unsigned bits = 0;
        for (int lane = 0; lane < 32; lane++) {
            T other;
            if ((mask >> lane & 1u) && read(lane, other) && std::memcmp(&other, &value, sizeof(T)) == 0)
                bits |= 1u << lane;
        }
        return bits;
    });
}
template <class T>
unsigned __match_all_sync(unsigned mask, T value, int* pred) {
    struct Match {
        unsigned same, voters;
    };
    const Match match = ::optiml::warp_collective(value, [&](auto read) {
        Match m{0, 0};
        for (int lane = 0; lane < 32; lane++) {
            T other;
            if ((mask >> lane & 1u) && read(lane, other)) {
                m.voters |= 1u << lane;
                if (std::memcmp(&other, &value, sizeof(T)) == 0) m.same |= 1u << lane;
            }
        }
        return m;
    });
    *pred = match.same == match.voters;
    return *pred ? match.voters : 0u;
}

namespace optiml {
template <class T, class Op>
T warp_reduce(unsigned mask, T value, Op op) {
    return warp_collective(value, [&](auto read) {
        bool first = true;
        T result = value;
        for (int lane = 0; lane < 32; lane++) {
            T other;
            if ((mask >> lane & 1u) && read(lane, other)) {
                result = first ? other : op(result, other);
                first = false;
            }
        }
        return result;
    });
}
}  // namespace optiml
inline unsigned __reduce_add_sync(unsigned mask, unsigned v) {
    return ::optiml::warp_reduce(mask, v, [](unsigned a, unsigned b) { return a + b; });
}
inline int __reduce_add_sync(unsigned mask, int v) {
    return ::optiml::warp_reduce(mask, v, [](int a, int b) { return int(unsigned(a) + unsigned(b)); });
}
inline unsigned __reduce_and_sync(unsigned mask, unsigned v) {
    return ::optiml::warp_reduce(mask, v, [](unsigned a, unsigned b) { return a & b; });
}
inline unsigned __reduce_or_sync(unsigned mask, unsigned v) {
    return ::optiml::warp_reduce(mask, v, [](unsigned a, unsigned b) { return a | b; });
}
inline unsigned __reduce_xor_sync(unsigned mask, unsigned v) {
    return ::optiml::warp_reduce(mask, v, [](unsigned a, unsigned b) { return a ^ b; });
}
#define OPTIML_REDUCE_MINMAX(T)                                                                                     \
    inline T __reduce_min_sync(unsigned mask, T v) {                                                              \
        return ::optiml::warp_reduce(mask, v, [](T a, T b) { return a < b ? a : b; });                            \
    }                                                                                                             \
    inline T __reduce_max_sync(unsigned mask, T v) {                                                              \
        return ::optiml::warp_reduce(mask, v, [](T a, T b) { return a > b ? a : b; });                            \
    }
OPTIML_REDUCE_MINMAX(int)
OPTIML_REDUCE_MINMAX(unsigned)

// ---------------------------------------------------------------------------------------------------------------
// Atomics: g++'s __atomic builtins on the element (lock-free on the host for 1, 2, 4 and 8 byte types); each
// returns the old value. Deduced from the pointer only, as CUDA's overloads convert the value operand.

namespace optiml {
template <class T, class Update>
T atomic_update(T* address, Update update) {
    static_assert(std::is_trivially_copyable_v<T> && (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 ||
                                                      sizeof(T) == 8),
                  "the emulator's atomics take 1, 2, 4 or 8 byte values");
    T old;
    __atomic_load(address, &old, __ATOMIC_RELAXED);
    for (;;) {
        T desired = update(old);
        if (__atomic_compare_exchange(address, &old, &desired, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) return old;
    }
}
}  // namespace optiml

template <class T>
T atomicAdd(T* address, std::type_identity_t<T> value) {
    if constexpr (std::is_integral_v<T>)
        return __atomic_fetch_add(address, value, __ATOMIC_SEQ_CST);
    else
        return ::optiml::atomic_update(address, [&](T old) { return T(old + value); });
}
template <class T>
T atomicSub(T* address, std::type_identity_t<T> value) {
    if constexpr (std::is_integral_v<T>)
        return __atomic_fetch_sub(address, value, __ATOMIC_SEQ_CST);
    else
        return ::optiml::atomic_update(address, [&](T old) { return T(old - value); });
}
template <class T>
T atomicExch(T* address, std::type_identity_t<T> value) {
    return ::optiml::atomic_update(address, [&](T) { return value; });
}
template <class T>
T atomicCAS(T* address, std::type_identity_t<T> compare, std::type_identity_t<T> value) {
    __atomic_compare_exchange(address, &compare, &value, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return compare;
}
template <class T>
T atomicMax(T* address, std::type_identity_t<T> value) {
    return ::optiml::atomic_update(address, [&](T old) { return old < value ? value : old; });
}
template <class T>
T atomicMin(T* address, std::type_identity_t<T> value) {
    return ::optiml::atomic_update(address, [&](T old) { return value < old ? value : old; });
}
template <class T>
T atomicAnd(T* address, std::type_identity_t<T> value) { return __atomic_fetch_and(address, value, __ATOMIC_SEQ_CST); }
template <class T>
T atomicOr(T* address, std::type_identity_t<T> value) { return __atomic_fetch_or(address, value, __ATOMIC_SEQ_CST); }
template <class T>
T atomicXor(T* address, std::type_identity_t<T> value) { return __atomic_fetch_xor(address, value, __ATOMIC_SEQ_CST); }
template <class T>
T atomicInc(T* address, std::type_identity_t<T> limit) {
    return ::optiml::atomic_update(address, [&](T old) { return old >= limit ? T(0) : T(old + 1); });
}
template <class T>
T atomicDec(T* address, std::type_identity_t<T> limit) {
    return ::optiml::atomic_update(address, [&](T old) { return (old == 0 || old > limit) ? limit : T(old - 1); });
}
#define OPTIML_SCOPED_ATOMIC(op)                                                                           \
    template <class T, class... A> T op##_block(T* address, A... values) { return op(address, values...); } \
    template <class T, class... A> T op##_system(T* address, A... values) { return op(address, values...); }
OPTIML_SCOPED_ATOMIC(atomicAdd)
OPTIML_SCOPED_ATOMIC(atomicSub)
OPTIML_SCOPED_ATOMIC(atomicExch)
OPTIML_SCOPED_ATOMIC(atomicCAS)
OPTIML_SCOPED_ATOMIC(atomicMax)
OPTIML_SCOPED_ATOMIC(atomicMin)
OPTIML_SCOPED_ATOMIC(atomicAnd)
OPTIML_SCOPED_ATOMIC(atomicOr)
OPTIML_SCOPED_ATOMIC(atomicXor)
OPTIML_SCOPED_ATOMIC(atomicInc)
OPTIML_SCOPED_ATOMIC(atomicDec)

// ---------------------------------------------------------------------------------------------------------------
// Loads and stores with cache hints

template <class T> T __ldg(const T* p) { return *p; }
template <class T> T __ldcg(const T* p) { return *p; }
template <class T> T __ldca(const T* p) { return *p; }
template <class T> T __ldcs(const T* p) { return *p; }
template <class T> T __ldlu(const T* p) { return *p; }
template <class T> T __ldcv(const T* p) { return *p; }
template <class T> void __stcg(T* p, T v) { *p = v; }
template <class T> void __stcs(T* p, T v) { *p = v; }
template <class T> void __stwb(T* p, T v) { *p = v; }
template <class T> void __stwt(T* p, T v) { *p = v; }
inline unsigned __isGlobal(const void*) { return 1; }
inline unsigned __isShared(const void*) { return 0; }

// ---------------------------------------------------------------------------------------------------------------
// min / max as CUDA's math headers overload them: any two arithmetic types, in their common type; floats as
// fminf/fmaxf (a NaN operand yields the other one).

template <class A, class B>
    requires(std::is_arithmetic_v<A> && std::is_arithmetic_v<B>)
inline std::common_type_t<A, B> min(A a, B b) {
    using C = std::common_type_t<A, B>;
    if constexpr (std::is_floating_point_v<C>)
        return std::fmin(C(a), C(b));
    else
        return C(b) < C(a) ? C(b) : C(a);
}
template <class A, class B>
    requires(std::is_arithmetic_v<A> && std::is_arithmetic_v<B>)
inline std::common_type_t<A, B> max(A a, B b) {
    using C = std::common_type_t<A, B>;
    if constexpr (std::is_floating_point_v<C>)
        return std::fmax(C(a), C(b));
    else
        return C(a) < C(b) ? C(b) : C(a);
}
inline unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
inline unsigned umax(unsigned a, unsigned b) { return a > b ? a : b; }
inline long long llmin(long long a, long long b) { return a < b ? a : b; }
inline long long llmax(long long a, long long b) { return a > b ? a : b; }
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a > b ? a : b; }

// ---------------------------------------------------------------------------------------------------------------
// Math and bit intrinsics that CUDA has and C does not. They live in namespace optiml_cuda and are reached through
// macros of their own names: the C library may declare some of these names itself (glibc declares __expf, __sinf...
// as internal aliases; C23 adds rsqrt, sinpi...), and a macro wins over any declaration. (Code below the macros
// calls them unqualified, through the macros.)

namespace optiml_cuda {

template <class To, class From>
inline To bits(From value) { return std::bit_cast<To>(value); }

inline float __int_as_float(int v) { return bits<float>(v); }
inline float __uint_as_float(unsigned v) { return bits<float>(v); }
inline int __float_as_int(float v) { return bits<int>(v); }
inline unsigned __float_as_uint(float v) { return bits<unsigned>(v); }
inline double __longlong_as_double(long long v) { return bits<double>(v); }
inline long long __double_as_longlong(double v) { return bits<long long>(v); }
inline int __double2hiint(double v) { return int(bits<unsigned long long>(v) >> 32); }
inline int __double2loint(double v) { return int(bits<unsigned long long>(v) & 0xffffffffu); }
inline double __hiloint2double(int hi, int lo) {
    return bits<double>((unsigned long long)(unsigned)hi << 32 | (unsigned)lo);
}

// Rounding-mode variants (_rz, _ru, _rd) round to nearest like _rn: the emulator does not model them.
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fsub_rn(float a, float b) { return a - b; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fdiv_rn(float a, float b) { return a / b; }
inline float __frcp_rn(float a) { return 1.0f / a; }
inline float __fsqrt_rn(float a) { return std::sqrt(a); }
inline float __frsqrt_rn(float a) { return 1.0f / std::sqrt(a); }
inline float __fmaf_rn(float a, float b, float c) { return std::fma(a, b, c); }
inline float __fmaf_ieee_rn(float a, float b, float c) { return std::fma(a, b, c); }
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __dsub_rn(double a, double b) { return a - b; }
inline double __dmul_rn(double a, double b) { return a * b; }
inline double __ddiv_rn(double a, double b) { return a / b; }
inline double __drcp_rn(double a) { return 1.0 / a; }
inline double __dsqrt_rn(double a) { return std::sqrt(a); }
inline double __fma_rn(double a, double b, double c) { return std::fma(a, b, c); }
inline float __fdividef(float a, float b) { return a / b; }
inline float fdividef(float a, float b) { return a / b; }
inline float __saturatef(float x) { return x >= 1.0f ? 1.0f : (x > 0.0f ? x : 0.0f); }   // NaN -> 0

// Fast approximations: computed accurately here.
inline float __expf(float x) { return std::exp(x); }
inline float __exp2f(float x) { return std::exp2(x); }
inline float __exp10f(float x) { return std::pow(10.0f, x); }
inline float __logf(float x) { return std::log(x); }
inline float __log2f(float x) { return std::log2(x); }
inline float __log10f(float x) { return std::log10(x); }
inline float __powf(float x, float y) { return std::pow(x, y); }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline float __tanf(float x) { return std::tan(x); }
inline float __tanhf(float x) { return std::tanh(x); }
inline void __sincosf(float x, float* s, float* c) { *s = std::sin(x); *c = std::cos(x); }

inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
inline float rsqrt(float x) { return rsqrtf(x); }
inline float rcbrtf(float x) { return 1.0f / std::cbrt(x); }
inline double rcbrt(double x) { return 1.0 / std::cbrt(x); }
inline float rcbrt(float x) { return rcbrtf(x); }
inline float exp10f(float x) { return std::pow(10.0f, x); }
inline double exp10(double x) { return std::pow(10.0, x); }
inline float exp10(float x) { return exp10f(x); }
inline void sincosf(float x, float* s, float* c) { *s = std::sin(x); *c = std::cos(x); }
inline void sincos(double x, double* s, double* c) { *s = std::sin(x); *c = std::cos(x); }
inline void sincos(float x, float* s, float* c) { sincosf(x, s, c); }
inline double sinpi(double x) { return std::sin(M_PI * x); }
inline double cospi(double x) { return std::cos(M_PI * x); }
inline float sinpif(float x) { return float(sinpi(x)); }
inline float cospif(float x) { return float(cospi(x)); }
inline float sinpi(float x) { return sinpif(x); }
inline float cospi(float x) { return cospif(x); }
inline void sincospif(float x, float* s, float* c) { *s = sinpif(x); *c = cospif(x); }
inline void sincospi(double x, double* s, double* c) { *s = sinpi(x); *c = cospi(x); }
inline double normcdf(double x) { return 0.5 * std::erfc(-x * M_SQRT1_2); }
inline float normcdff(float x) { return float(normcdf(x)); }
inline float normcdf(float x) { return normcdff(x); }
inline double erfinv(double y) {
    if (!(y > -1.0 && y < 1.0)) return y == 1.0 ? INFINITY : (y == -1.0 ? -INFINITY : NAN);
    // Giles' single-precision approximation, then Newton steps on erf.
    double w = -std::log((1.0 - y) * (1.0 + y)), x;
    if (w < 5.0) {
        w -= 2.5;
        x = 2.81022636e-08;
        for (double c : {3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503,
                         -0.00417768164, 0.246640727, 1.50140941})
            x = c + x * w;
    } else {
        w = std::sqrt(w) - 3.0;
        x = -0.000200214257;
        for (double c : {0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613,
                         0.00943887047, 1.00167406, 2.83297682})
            x = c + x * w;
    }
    x *= y;
    for (int i = 0; i < 3; i++) x -= (std::erf(x) - y) / (2.0 / std::sqrt(M_PI) * std::exp(-x * x));
    return x;
}
inline float erfinvf(float y) { return float(erfinv(y)); }
inline float erfinv(float y) { return erfinvf(y); }
inline double erfcinv(double y) { return erfinv(1.0 - y); }
inline float erfcinvf(float y) { return float(erfcinv(y)); }
inline float erfcinv(float y) { return erfcinvf(y); }
inline double normcdfinv(double p) { return -M_SQRT2 * erfcinv(2.0 * p); }
inline float normcdfinvf(float p) { return float(normcdfinv(p)); }
inline float normcdfinv(float p) { return normcdfinvf(p); }
inline double erfcx(double x) { return std::exp(x * x) * std::erfc(x); }
inline float erfcxf(float x) { return float(erfcx(x)); }
inline float erfcx(float x) { return erfcxf(x); }
inline float rhypotf(float x, float y) { return 1.0f / std::hypot(x, y); }
inline double rhypot(double x, double y) { return 1.0 / std::hypot(x, y); }
inline float norm3df(float a, float b, float c) {
    return float(std::sqrt(double(a) * a + double(b) * b + double(c) * c));
}
inline double norm3d(double a, double b, double c) { return std::sqrt(a * a + b * b + c * c); }
inline float rnorm3df(float a, float b, float c) { return 1.0f / norm3df(a, b, c); }
inline double rnorm3d(double a, double b, double c) { return 1.0 / norm3d(a, b, c); }
inline float norm4df(float a, float b, float c, float d) {
    return float(std::sqrt(double(a) * a + double(b) * b + double(c) * c + double(d) * d));
}
inline double norm4d(double a, double b, double c, double d) { return std::sqrt(a * a + b * b + c * c + d * d); }
inline float rnorm4df(float a, float b, float c, float d) { return 1.0f / norm4df(a, b, c, d); }
inline double rnorm4d(double a, double b, double c, double d) { return 1.0 / norm4d(a, b, c, d); }
inline float normf(int n, const float* a) {
    double s = 0;
    for (int i = 0; i < n; i++) s += double(a[i]) * a[i];
    return float(std::sqrt(s));
}
inline double norm(int n, const double* a) {
    double s = 0;
    for (int i = 0; i < n; i++) s += a[i] * a[i];
    return std::sqrt(s);
}
inline float rnormf(int n, const float* a) { return 1.0f / normf(n, a); }
inline double rnorm(int n, const double* a) { return 1.0 / norm(n, a); }

// Conversions. CUDA saturates out-of-range values and maps NaN to 0 (C leaves both undefined).
template <class I, class F>
inline I saturate(F value) {
    if (value != value) return I(0);
    if (value <= F(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
    if (value >= F(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
    return I(value);
}
#define OPTIML_CONVERSIONS(prefix, F, suffix, I)                                                         \
    inline I prefix##2##suffix##_rn(F v) { return saturate<I>(std::nearbyint(v)); }                     \
    inline I prefix##2##suffix##_rz(F v) { return saturate<I>(std::trunc(v)); }                         \
    inline I prefix##2##suffix##_rd(F v) { return saturate<I>(std::floor(v)); }                         \
    inline I prefix##2##suffix##_ru(F v) { return saturate<I>(std::ceil(v)); }
OPTIML_CONVERSIONS(__float, float, int, int)
OPTIML_CONVERSIONS(__float, float, uint, unsigned)
OPTIML_CONVERSIONS(__float, float, ll, long long)
OPTIML_CONVERSIONS(__float, float, ull, unsigned long long)
OPTIML_CONVERSIONS(__double, double, int, int)
OPTIML_CONVERSIONS(__double, double, uint, unsigned)
OPTIML_CONVERSIONS(__double, double, ll, long long)
OPTIML_CONVERSIONS(__double, double, ull, unsigned long long)
inline float __int2float_rn(int v) { return float(v); }
inline float __uint2float_rn(unsigned v) { return float(v); }
inline float __ll2float_rn(long long v) { return float(v); }
inline float __ull2float_rn(unsigned long long v) { return float(v); }
inline double __int2double_rn(int v) { return double(v); }
inline double __uint2double_rn(unsigned v) { return double(v); }
inline double __ll2double_rn(long long v) { return double(v); }
inline double __ull2double_rn(unsigned long long v) { return double(v); }
inline float __double2float_rn(double v) { return float(v); }
inline float __double2float_rz(double v) { return float(v); }

// Integer intrinsics.
inline int __popc(unsigned v) { return std::popcount(v); }
inline int __popcll(unsigned long long v) { return std::popcount(v); }
inline int __clz(int v) { return std::countl_zero(unsigned(v)); }
inline int __clzll(long long v) { return std::countl_zero((unsigned long long)v); }
inline int __ffs(int v) { return v == 0 ? 0 : std::countr_zero(unsigned(v)) + 1; }
inline int __ffsll(long long v) { return v == 0 ? 0 : std::countr_zero((unsigned long long)v) + 1; }
inline unsigned __brev(unsigned v) {
    unsigned r = 0;
    for (int i = 0; i < 32; i++) r |= ((v >> i) & 1u) << (31 - i);
    return r;
}
inline unsigned long long __brevll(unsigned long long v) {
    return (unsigned long long)__brev(unsigned(v)) << 32 | __brev(unsigned(v >> 32));
}
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
    const unsigned long long both = (unsigned long long)y << 32 | x;
    unsigned r = 0;
    for (int i = 0; i < 4; i++) r |= unsigned((both >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
    return r;
}
inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned shift) {
    return unsigned((((unsigned long long)hi << 32 | lo) << (shift & 31)) >> 32);
}
inline unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned shift) {
    return unsigned((((unsigned long long)hi << 32 | lo) << (shift < 32u ? shift : 32u)) >> 32);
}
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned shift) {
    return unsigned(((unsigned long long)hi << 32 | lo) >> (shift & 31));
}
inline unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned shift) {
    return unsigned(((unsigned long long)hi << 32 | lo) >> (shift < 32u ? shift : 32u));
}
inline int __mulhi(int a, int b) { return int(((long long)a * b) >> 32); }
inline unsigned __umulhi(unsigned a, unsigned b) { return unsigned(((unsigned long long)a * b) >> 32); }
inline long long __mul64hi(long long a, long long b) { return (long long)(((__int128)a * b) >> 64); }
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
    return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
inline int __mul24(int a, int b) { return int((long long)((a << 8) >> 8) * ((b << 8) >> 8)); }
inline unsigned __umul24(unsigned a, unsigned b) { return (a & 0xffffffu) * (b & 0xffffffu); }
inline int __hadd(int a, int b) { return int(((long long)a + b) >> 1); }
inline int __rhadd(int a, int b) { return int(((long long)a + b + 1) >> 1); }
inline unsigned __uhadd(unsigned a, unsigned b) { return unsigned(((unsigned long long)a + b) >> 1); }
inline unsigned __urhadd(unsigned a, unsigned b) { return unsigned(((unsigned long long)a + b + 1) >> 1); }
inline unsigned __sad(int a, int b, unsigned c) {
    return (a > b ? unsigned(a) - unsigned(b) : unsigned(b) - unsigned(a)) + c;
}
inline unsigned __usad(unsigned a, unsigned b, unsigned c) { return (a > b ? a - b : b - a) + c; }
inline int __dp4a(int a, int b, int c) {
    for (int i = 0; i < 4; i++)
        c += int(static_cast<signed char>(a >> (8 * i))) * int(static_cast<signed char>(b >> (8 * i)));
    return c;
}
inline unsigned __dp4a(unsigned a, unsigned b, unsigned c) {
    for (int i = 0; i < 4; i++) c += ((a >> (8 * i)) & 0xffu) * ((b >> (8 * i)) & 0xffu);
    return c;
}

}  // namespace optiml_cuda

#define __int_as_float ::optiml_cuda::__int_as_float
#define __uint_as_float ::optiml_cuda::__uint_as_float
#define __float_as_int ::optiml_cuda::__float_as_int
#define __float_as_uint ::optiml_cuda::__float_as_uint
#define __longlong_as_double ::optiml_cuda::__longlong_as_double
#define __double_as_longlong ::optiml_cuda::__double_as_longlong
#define __double2hiint ::optiml_cuda::__double2hiint
#define __double2loint ::optiml_cuda::__double2loint
#define __hiloint2double ::optiml_cuda::__hiloint2double
#define __fadd_rn ::optiml_cuda::__fadd_rn
#define __fadd_rz ::optiml_cuda::__fadd_rn
#define __fadd_ru ::optiml_cuda::__fadd_rn
#define __fadd_rd ::optiml_cuda::__fadd_rn
#define __fsub_rn ::optiml_cuda::__fsub_rn
#define __fsub_rz ::optiml_cuda::__fsub_rn
#define __fsub_ru ::optiml_cuda::__fsub_rn
#define __fsub_rd ::optiml_cuda::__fsub_rn
#define __fmul_rn ::optiml_cuda::__fmul_rn
#define __fmul_rz ::optiml_cuda::__fmul_rn
#define __fmul_ru ::optiml_cuda::__fmul_rn
#define __fmul_rd ::optiml_cuda::__fmul_rn
#define __fdiv_rn ::optiml_cuda::__fdiv_rn
#define __fdiv_rz ::optiml_cuda::__fdiv_rn
#define __fdiv_ru ::optiml_cuda::__fdiv_rn
#define __fdiv_rd ::optiml_cuda::__fdiv_rn
#define __frcp_rn ::optiml_cuda::__frcp_rn
#define __frcp_rz ::optiml_cuda::__frcp_rn
#define __frcp_ru ::optiml_cuda::__frcp_rn
#define __frcp_rd ::optiml_cuda::__frcp_rn
#define __fsqrt_rn ::optiml_cuda::__fsqrt_rn
#define __fsqrt_rz ::optiml_cuda::__fsqrt_rn
#define __fsqrt_ru ::optiml_cuda::__fsqrt_rn
#define __fsqrt_rd ::optiml_cuda::__fsqrt_rn
#define __frsqrt_rn ::optiml_cuda::__frsqrt_rn
#define __fmaf_rn ::optiml_cuda::__fmaf_rn
#define __fmaf_rz ::optiml_cuda::__fmaf_rn
#define __fmaf_ru ::optiml_cuda::__fmaf_rn
#define __fmaf_rd ::optiml_cuda::__fmaf_rn
#define __fmaf_ieee_rn ::optiml_cuda::__fmaf_ieee_rn
#define __dadd_rn ::optiml_cuda::__dadd_rn
#define __dsub_rn ::optiml_cuda::__dsub_rn
#define __dmul_rn ::optiml_cuda::__dmul_rn
#define __ddiv_rn ::optiml_cuda::__ddiv_rn
#define __drcp_rn ::optiml_cuda::__drcp_rn
#define __dsqrt_rn ::optiml_cuda::__dsqrt_rn
#define __fma_rn ::optiml_cuda::__fma_rn
#define __fdividef ::optiml_cuda::__fdividef
#define fdividef ::optiml_cuda::fdividef
#define __saturatef ::optiml_cuda::__saturatef
#define __expf ::optiml_cuda::__expf
#define __exp2f ::optiml_cuda::__exp2f
#define __exp10f ::optiml_cuda::__exp10f
#define __logf ::optiml_cuda::__logf
#define __log2f ::optiml_cuda::__log2f
#define __log10f ::optiml_cuda::__log10f
#define __powf ::optiml_cuda::__powf
#define __sinf ::optiml_cuda::__sinf
#define __cosf ::optiml_cuda::__cosf
#define __tanf ::optiml_cuda::__tanf
#define __tanhf ::optiml_cuda::__tanhf
#define __sincosf ::optiml_cuda::__sincosf
#define rsqrtf ::optiml_cuda::rsqrtf
#define rsqrt ::optiml_cuda::rsqrt
#define rcbrtf ::optiml_cuda::rcbrtf
#define rcbrt ::optiml_cuda::rcbrt
#define exp10f ::optiml_cuda::exp10f
#define exp10 ::optiml_cuda::exp10
#define sincosf ::optiml_cuda::sincosf
#define sincos ::optiml_cuda::sincos
#define sinpi ::optiml_cuda::sinpi
#define cospi ::optiml_cuda::cospi
#define sinpif ::optiml_cuda::sinpif
#define cospif ::optiml_cuda::cospif
#define sincospif ::optiml_cuda::sincospif
#define sincospi ::optiml_cuda::sincospi
#define normcdf ::optiml_cuda::normcdf
#define normcdff ::optiml_cuda::normcdff
#define erfinv ::optiml_cuda::erfinv
#define erfinvf ::optiml_cuda::erfinvf
#define erfcinv ::optiml_cuda::erfcinv
#define erfcinvf ::optiml_cuda::erfcinvf
#define normcdfinv ::optiml_cuda::normcdfinv
#define normcdfinvf ::optiml_cuda::normcdfinvf
#define erfcx ::optiml_cuda::erfcx
#define erfcxf ::optiml_cuda::erfcxf
#define rhypotf ::optiml_cuda::rhypotf
#define rhypot ::optiml_cuda::rhypot
#define norm3df ::optiml_cuda::norm3df
#define norm3d ::optiml_cuda::norm3d
#define rnorm3df ::optiml_cuda::rnorm3df
#define rnorm3d ::optiml_cuda::rnorm3d
#define norm4df ::optiml_cuda::norm4df
#define norm4d ::optiml_cuda::norm4d
#define rnorm4df ::optiml_cuda::rnorm4df
#define rnorm4d ::optiml_cuda::rnorm4d
#define normf ::optiml_cuda::normf
#define rnormf ::optiml_cuda::rnormf
#define rnorm ::optiml_cuda::rnorm
#define __int2float_rn ::optiml_cuda::__int2float_rn
#define __int2float_rz ::optiml_cuda::__int2float_rn
#define __int2float_rd ::optiml_cuda::__int2float_rn
#define __int2float_ru ::optiml_cuda::__int2float_rn
#define __uint2float_rn ::optiml_cuda::__uint2float_rn
#define __uint2float_rz ::optiml_cuda::__uint2float_rn
#define __ll2float_rn ::optiml_cuda::__ll2float_rn
#define __ull2float_rn ::optiml_cuda::__ull2float_rn
#define __int2double_rn ::optiml_cuda::__int2double_rn
#define __uint2double_rn ::optiml_cuda::__uint2double_rn
#define __ll2double_rn ::optiml_cuda::__ll2double_rn
#define __ull2double_rn ::optiml_cuda::__ull2double_rn
#define __double2float_rn ::optiml_cuda::__double2float_rn
#define __double2float_rz ::optiml_cuda::__double2float_rz
#define __popc ::optiml_cuda::__popc
#define __popcll ::optiml_cuda::__popcll
#define __clz ::optiml_cuda::__clz
#define __clzll ::optiml_cuda::__clzll
#define __ffs ::optiml_cuda::__ffs
#define __ffsll ::optiml_cuda::__ffsll
#define __brev ::optiml_cuda::__brev
#define __brevll ::optiml_cuda::__brevll
#define __byte_perm ::optiml_cuda::__byte_perm
#define __funnelshift_l ::optiml_cuda::__funnelshift_l
#define __funnelshift_lc ::optiml_cuda::__funnelshift_lc
#define __funnelshift_r ::optiml_cuda::__funnelshift_r
#define __funnelshift_rc ::optiml_cuda::__funnelshift_rc
#define __mulhi ::optiml_cuda::__mulhi
#define __umulhi ::optiml_cuda::__umulhi
#define __mul64hi ::optiml_cuda::__mul64hi
#define __umul64hi ::optiml_cuda::__umul64hi
#define __mul24 ::optiml_cuda::__mul24
#define __umul24 ::optiml_cuda::__umul24
#define __rhadd ::optiml_cuda::__rhadd
#define __uhadd ::optiml_cuda::__uhadd
#define __urhadd ::optiml_cuda::__urhadd
#define __sad ::optiml_cuda::__sad
#define __usad ::optiml_cuda::__usad
#define __dp4a ::optiml_cuda::__dp4a
#define __float2int_rn ::optiml_cuda::__float2int_rn
#define __float2int_rz ::optiml_cuda::__float2int_rz
#define __float2int_rd ::optiml_cuda::__float2int_rd
#define __float2int_ru ::optiml_cuda::__float2int_ru
#define __float2uint_rn ::optiml_cuda::__float2uint_rn
#define __float2uint_rz ::optiml_cuda::__float2uint_rz
#define __float2uint_rd ::optiml_cuda::__float2uint_rd
#define __float2uint_ru ::optiml_cuda::__float2uint_ru
#define __float2ll_rn ::optiml_cuda::__float2ll_rn
#define __float2ll_rz ::optiml_cuda::__float2ll_rz
#define __float2ll_rd ::optiml_cuda::__float2ll_rd
#define __float2ll_ru ::optiml_cuda::__float2ll_ru
#define __float2ull_rn ::optiml_cuda::__float2ull_rn
#define __float2ull_rz ::optiml_cuda::__float2ull_rz
#define __float2ull_rd ::optiml_cuda::__float2ull_rd
#define __float2ull_ru ::optiml_cuda::__float2ull_ru
#define __double2int_rn ::optiml_cuda::__double2int_rn
#define __double2int_rz ::optiml_cuda::__double2int_rz
#define __double2int_rd ::optiml_cuda::__double2int_rd
#define __double2int_ru ::optiml_cuda::__double2int_ru
#define __double2uint_rn ::optiml_cuda::__double2uint_rn
#define __double2uint_rz ::optiml_cuda::__double2uint_rz
#define __double2uint_rd ::optiml_cuda::__double2uint_rd
#define __double2uint_ru ::optiml_cuda::__double2uint_ru
#define __double2ll_rn ::optiml_cuda::__double2ll_rn
#define __double2ll_rz ::optiml_cuda::__double2ll_rz
#define __double2ll_rd ::optiml_cuda::__double2ll_rd
#define __double2ll_ru ::optiml_cuda::__double2ll_ru
#define __double2ull_rn ::optiml_cuda::__double2ull_rn
#define __double2ull_rz ::optiml_cuda::__double2ull_rz
#define __double2ull_rd ::optiml_cuda::__double2ull_rd
#define __double2ull_ru ::optiml_cuda::__double2ull_ru
// norm(int, const double*) is reached by a using declaration, not a macro: `norm` is too common a name. The
// integer __hadd joins the __half and __nv_bfloat16 overloads defined below.
using optiml_cuda::norm;
using optiml_cuda::__hadd;

// math_constants.h
#define CUDART_INF_F            __int_as_float(0x7f800000U)
#define CUDART_NAN_F            __int_as_float(0x7fffffffU)
#define CUDART_MIN_DENORM_F     __int_as_float(0x00000001U)
#define CUDART_MAX_NORMAL_F     __int_as_float(0x7f7fffffU)
#define CUDART_NEG_ZERO_F       __int_as_float(0x80000000U)
#define CUDART_ZERO_F           0.0F
#define CUDART_ONE_F            1.0F
#define CUDART_SQRT_HALF_F      0.707106781F
#define CUDART_SQRT_TWO_F       1.414213562F
#define CUDART_THIRD_F          0.333333333F
#define CUDART_PIO4_F           0.785398163F
#define CUDART_PIO2_F           1.570796327F
#define CUDART_3PIO4_F          2.356194490F
#define CUDART_2_OVER_PI_F      0.636619772F
#define CUDART_SQRT_2_OVER_PI_F 0.797884561F
#define CUDART_PI_F             3.141592654F
#define CUDART_L2E_F            1.442695041F
#define CUDART_L2T_F            3.321928094F
#define CUDART_LG2_F            0.301029996F
#define CUDART_LGE_F            0.434294482F
#define CUDART_LN2_F            0.693147181F
#define CUDART_LNT_F            2.302585093F
#define CUDART_LNPI_F           1.144729886F
#define CUDART_TWO_TO_M126_F    1.175494351e-38F
#define CUDART_TWO_TO_126_F     8.507059173e37F
#define CUDART_NORM_HUGE_F      3.402823466e38F
#define CUDART_TWO_TO_23_F      8388608.0F
#define CUDART_TWO_TO_24_F      16777216.0F
#define CUDART_TWO_TO_31_F      2147483648.0F
#define CUDART_TWO_TO_32_F      4294967296.0F
#define CUDART_INF              __longlong_as_double(0x7ff0000000000000ULL)
#define CUDART_NAN              __longlong_as_double(0xfff8000000000000ULL)
#define CUDART_NEG_ZERO         __longlong_as_double(0x8000000000000000ULL)
#define CUDART_MIN_DENORM       __longlong_as_double(0x0000000000000001ULL)
#define CUDART_ZERO             0.0
#define CUDART_ONE              1.0
#define CUDART_SQRT_TWO         1.4142135623730951e+0
#define CUDART_SQRT_HALF        7.0710678118654757e-1
#define CUDART_THIRD            3.3333333333333333e-1
#define CUDART_TWOTHIRD         6.6666666666666667e-1
#define CUDART_PIO4             7.8539816339744828e-1
#define CUDART_PIO2             1.5707963267948966e+0
#define CUDART_3PIO4            2.3561944901923448e+0
#define CUDART_2_OVER_PI        6.3661977236758138e-1
#define CUDART_PI               3.1415926535897931e+0
#define CUDART_SQRT_2PI         2.5066282746310007e+0
#define CUDART_SQRT_PIO2        1.2533141373155003e+0
#define CUDART_SQRT_2OPI        7.9788456080286536e-1
#define CUDART_L2E              1.4426950408889634e+0
#define CUDART_L2T              3.3219280948873622e+0
#define CUDART_LG2              3.0102999566398120e-1
#define CUDART_LGE              4.3429448190325182e-1
#define CUDART_LN2              6.9314718055994529e-1
#define CUDART_LNT              2.3025850929940459e+0
#define CUDART_LNPI             1.1447298858494002e+0
#define CUDART_TWO_TO_23        8388608.0
#define CUDART_TWO_TO_52        4503599627370496.0
#define CUDART_TWO_TO_53        9007199254740992.0

// ---------------------------------------------------------------------------------------------------------------
// __half and __nv_bfloat16: 2-byte structs of the bits (numpy float16 / uint16 arrays map onto them directly).
// Arithmetic is done in float and rounded to the type, which for + - * / sqrt gives the correctly rounded result.

namespace optiml {
inline unsigned short f32_to_f16(float f) { return std::bit_cast<unsigned short>(static_cast<_Float16>(f)); }
inline unsigned short f64_to_f16(double f) { return std::bit_cast<unsigned short>(static_cast<_Float16>(f)); }
inline float f16_to_f32(unsigned short h) { return static_cast<float>(std::bit_cast<_Float16>(h)); }
inline unsigned short f32_to_bf16(float f) {
    unsigned u = std::bit_cast<unsigned>(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return 0x7fff;   // NaN, as CUDA returns it
    u += 0x7fffu + ((u >> 16) & 1u);                     // round to nearest even
    return (unsigned short)(u >> 16);
}
inline unsigned short f32_to_bf16_rz(float f) { return (unsigned short)(std::bit_cast<unsigned>(f) >> 16); }
inline float bf16_to_f32(unsigned short b) { return std::bit_cast<float>((unsigned)b << 16); }
}  // namespace optiml

struct __half_raw { unsigned short x; };
struct __nv_bfloat16;
struct __nv_bfloat16_raw { unsigned short x; };

struct __attribute__((aligned(2))) __half {
    unsigned short __x;
    __half() = default;
    constexpr __half(__half_raw r) : __x(r.x) {}
    __half(float f) : __x(::optiml::f32_to_f16(f)) {}
    __half(double f) : __x(::optiml::f64_to_f16(f)) {}
    template <class I>
        requires std::is_integral_v<I>
    __half(I i) : __x(std::bit_cast<unsigned short>(static_cast<_Float16>(i))) {}
    explicit __half(const __nv_bfloat16& b);
    operator float() const { return ::optiml::f16_to_f32(__x); }
    constexpr operator __half_raw() const { return __half_raw{__x}; }
    __half& operator=(__half_raw r) { __x = r.x; return *this; }
};

struct __attribute__((aligned(2))) __nv_bfloat16 {
    unsigned short __x;
    __nv_bfloat16() = default;
    constexpr __nv_bfloat16(__nv_bfloat16_raw r) : __x(r.x) {}
    __nv_bfloat16(float f) : __x(::optiml::f32_to_bf16(f)) {}
    __nv_bfloat16(double f) : __x(::optiml::f32_to_bf16(float(f))) {}
    template <class I>
        requires std::is_integral_v<I>
    __nv_bfloat16(I i) : __x(::optiml::f32_to_bf16(float(i))) {}
    explicit __nv_bfloat16(const __half& h) : __x(::optiml::f32_to_bf16(float(h))) {}
    operator float() const { return ::optiml::bf16_to_f32(__x); }
    constexpr operator __nv_bfloat16_raw() const { return __nv_bfloat16_raw{__x}; }
    __nv_bfloat16& operator=(__nv_bfloat16_raw r) { __x = r.x; return *this; }
};

inline __half::__half(const __nv_bfloat16& b) : __x(::optiml::f32_to_f16(float(b))) {}

static_assert(sizeof(__half) == 2 && sizeof(__nv_bfloat16) == 2, "16-bit float storage");

typedef __half half;
typedef __nv_bfloat16 nv_bfloat16;

struct __attribute__((aligned(4))) __half2 {
    __half x, y;
};
struct __attribute__((aligned(4))) __nv_bfloat162 {
    __nv_bfloat16 x, y;
};
typedef __half2 half2;
typedef __nv_bfloat162 nv_bfloat162;

#define OPTIML_HALF_TYPE(H, H2)                                                \
    inline H operator+(const H& a, const H& b) { return H(float(a) + float(b)); }                                \
    inline H operator-(const H& a, const H& b) { return H(float(a) - float(b)); }                                \
    inline H operator*(const H& a, const H& b) { return H(float(a) * float(b)); }                                \
    inline H operator/(const H& a, const H& b) { return H(float(a) / float(b)); }                                \
    inline H& operator+=(H& a, const H& b) { return a = a + b; }                                                 \
    inline H& operator-=(H& a, const H& b) { return a = a - b; }                                                 \
    inline H& operator*=(H& a, const H& b) { return a = a * b; }                                                 \
    inline H& operator/=(H& a, const H& b) { return a = a / b; }                                                 \
    inline H operator+(const H& a) { return a; }                                                                 \
    inline H operator-(const H& a) { H r = a; r.__x ^= 0x8000u; return r; }                                     \
    inline H& operator++(H& a) { return a = H(float(a) + 1.0f); }                                                \
    inline H& operator--(H& a) { return a = H(float(a) - 1.0f); }                                                \
    inline H operator++(H& a, int) { H old = a; ++a; return old; }                                               \
    inline H operator--(H& a, int) { H old = a; --a; return old; }                                               \
    inline bool operator==(const H& a, const H& b) { return float(a) == float(b); }                              \
    inline bool operator!=(const H& a, const H& b) { return float(a) != float(b); }                              \
    inline bool operator<(const H& a, const H& b) { return float(a) < float(b); }                                \
    inline bool operator>(const H& a, const H& b) { return float(a) > float(b); }                                \
    inline bool operator<=(const H& a, const H& b) { return float(a) <= float(b); }                              \
    inline bool operator>=(const H& a, const H& b) { return float(a) >= float(b); }                              \
    inline H __hadd(H a, H b) { return a + b; }                                                                  \
    inline H __hsub(H a, H b) { return a - b; }                                                                  \
    inline H __hmul(H a, H b) { return a * b; }                                                                  \
    inline H __hdiv(H a, H b) { return a / b; }                                                                  \
    inline H __hadd_rn(H a, H b) { return a + b; }                                                               \
    inline H __hsub_rn(H a, H b) { return a - b; }                                                               \
    inline H __hmul_rn(H a, H b) { return a * b; }                                                               \
    inline H __hadd_sat(H a, H b) { return H(__saturatef(float(a) + float(b))); }                 \
    inline H __hmul_sat(H a, H b) { return H(__saturatef(float(a) * float(b))); }                \
    inline H __hneg(H a) { return -a; }                                                                          \
    inline H __habs(H a) { H r = a; r.__x &= 0x7fffu; return r; }                                                \
    inline H __hfma(H a, H b, H c) { return H(double(float(a)) * double(float(b)) + double(float(c))); }         \
    inline H __hfma_relu(H a, H b, H c) { H r = __hfma(a, b, c); return float(r) < 0.0f ? H(0.0f) : r; }         \
    inline H __hmax(H a, H b) { return H(std::fmax(float(a), float(b))); }                                      \
    inline H __hmin(H a, H b) { return H(std::fmin(float(a), float(b))); }                                      \
    inline H __hmax_nan(H a, H b) { return (float(a) != float(a)) ? a : (float(b) != float(b) ? b : __hmax(a, b)); } \
    inline H __hmin_nan(H a, H b) { return (float(a) != float(a)) ? a : (float(b) != float(b) ? b : __hmin(a, b)); } \
    inline bool __heq(H a, H b) { return a == b; }                                                               \
    inline bool __hne(H a, H b) { return a != b; }                                                               \
    inline bool __hlt(H a, H b) { return a < b; }                                                                \
    inline bool __hle(H a, H b) { return a <= b; }                                                               \
    inline bool __hgt(H a, H b) { return a > b; }                                                                \
    inline bool __hge(H a, H b) { return a >= b; }                                                               \
    inline bool __hisnan(H a) { return float(a) != float(a); }                                                   \
    inline int __hisinf(H a) { float f = a; return std::isinf(f) ? (f < 0 ? -1 : 1) : 0; }                      \
    inline H hexp(H a) { return H(std::exp(float(a))); }                                                         \
    inline H hexp2(H a) { return H(std::exp2(float(a))); }                                                       \
    inline H hexp10(H a) { return H(std::pow(10.0f, float(a))); }                                                \
    inline H hlog(H a) { return H(std::log(float(a))); }                                                         \
    inline H hlog2(H a) { return H(std::log2(float(a))); }                                                       \
    inline H hlog10(H a) { return H(std::log10(float(a))); }                                                     \
    inline H hsqrt(H a) { return H(std::sqrt(float(a))); }                                                       \
    inline H hrsqrt(H a) { return H(1.0f / std::sqrt(float(a))); }                                               \
    inline H hrcp(H a) { return H(1.0f / float(a)); }                                                            \
    inline H hsin(H a) { return H(std::sin(float(a))); }                                                         \
    inline H hcos(H a) { return H(std::cos(float(a))); }                                                         \
    inline H htanh(H a) { return H(std::tanh(float(a))); }                                                       \
    inline H hfloor(H a) { return H(std::floor(float(a))); }                                                     \
    inline H hceil(H a) { return H(std::ceil(float(a))); }                                                       \
    inline H htrunc(H a) { return H(std::trunc(float(a))); }                                                     \
    inline H hrint(H a) { return H(std::nearbyint(float(a))); }                                                  \
    inline H habs(H a) { return __habs(a); }                                                                     \
    inline H2 operator+(const H2& a, const H2& b) { return H2{a.x + b.x, a.y + b.y}; }                           \
    inline H2 operator-(const H2& a, const H2& b) { return H2{a.x - b.x, a.y - b.y}; }                           \
    inline H2 operator*(const H2& a, const H2& b) { return H2{a.x * b.x, a.y * b.y}; }                           \
    inline H2 operator/(const H2& a, const H2& b) { return H2{a.x / b.x, a.y / b.y}; }                           \
    inline H2& operator+=(H2& a, const H2& b) { return a = a + b; }                                              \
    inline H2& operator-=(H2& a, const H2& b) { return a = a - b; }                                              \
    inline H2& operator*=(H2& a, const H2& b) { return a = a * b; }                                              \
    inline H2& operator/=(H2& a, const H2& b) { return a = a / b; }                                              \
    inline H2 __hadd2(H2 a, H2 b) { return a + b; }                                                              \
    inline H2 __hsub2(H2 a, H2 b) { return a - b; }                                                              \
    inline H2 __hmul2(H2 a, H2 b) { return a * b; }                                                              \
    inline H2 __h2div(H2 a, H2 b) { return a / b; }                                                              \
    inline H2 __hfma2(H2 a, H2 b, H2 c) { return H2{__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)}; }             \
    inline H2 __hmax2(H2 a, H2 b) { return H2{__hmax(a.x, b.x), __hmax(a.y, b.y)}; }                             \
    inline H2 __hmin2(H2 a, H2 b) { return H2{__hmin(a.x, b.x), __hmin(a.y, b.y)}; }                             \
    inline H2 __habs2(H2 a) { return H2{__habs(a.x), __habs(a.y)}; }                                             \
    inline H2 __hneg2(H2 a) { return H2{-a.x, -a.y}; }                                                           \
    inline H2 h2exp(H2 a) { return H2{hexp(a.x), hexp(a.y)}; }                                                   \
    inline H2 h2sqrt(H2 a) { return H2{hsqrt(a.x), hsqrt(a.y)}; }                                                \
    inline H2 __lowhigh2highlow(H2 a) { return H2{a.y, a.x}; }                                                   \
    inline float __low2float(H2 a) { return float(a.x); }                                                        \
    inline float __high2float(H2 a) { return float(a.y); }

OPTIML_HALF_TYPE(__half, __half2)
OPTIML_HALF_TYPE(__nv_bfloat16, __nv_bfloat162)
#undef OPTIML_HALF_TYPE

inline float __half2float(__half h) { return float(h); }
inline __half __float2half(float f) { return __half(f); }
inline __half __float2half_rn(float f) { return __half(f); }
inline __half __double2half(double d) { return __half(d); }
inline __half __int2half_rn(int i) { return __half(i); }
inline __half __uint2half_rn(unsigned i) { return __half(i); }
inline int __half2int_rn(__half h) { return __float2int_rn(float(h)); }
inline int __half2int_rz(__half h) { return __float2int_rz(float(h)); }
inline unsigned short __half_as_ushort(__half h) { return h.__x; }
inline short __half_as_short(__half h) { return (short)h.__x; }
inline __half __ushort_as_half(unsigned short u) { return __half(__half_raw{u}); }
inline __half __short_as_half(short u) { return __half(__half_raw{(unsigned short)u}); }
inline __half2 __float2half2_rn(float f) { return __half2{__half(f), __half(f)}; }
inline __half2 __floats2half2_rn(float a, float b) { return __half2{__half(a), __half(b)}; }
inline __half2 __half2half2(__half a) { return __half2{a, a}; }
inline __half2 __halves2half2(__half a, __half b) { return __half2{a, b}; }
inline __half __low2half(__half2 a) { return a.x; }
inline __half __high2half(__half2 a) { return a.y; }
inline float2 __half22float2(__half2 a) { return float2{float(a.x), float(a.y)}; }
inline __half2 __float22half2_rn(float2 a) { return __half2{__half(a.x), __half(a.y)}; }

inline float __bfloat162float(__nv_bfloat16 b) { return float(b); }
inline __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16(f); }
inline __nv_bfloat16 __float2bfloat16_rn(float f) { return __nv_bfloat16(f); }
inline __nv_bfloat16 __float2bfloat16_rz(float f) {
    return __nv_bfloat16(__nv_bfloat16_raw{::optiml::f32_to_bf16_rz(f)});
}
inline __nv_bfloat16 __double2bfloat16(double d) { return __nv_bfloat16(d); }
inline __nv_bfloat16 __int2bfloat16_rn(int i) { return __nv_bfloat16(i); }
inline int __bfloat162int_rn(__nv_bfloat16 b) { return __float2int_rn(float(b)); }
inline int __bfloat162int_rz(__nv_bfloat16 b) { return __float2int_rz(float(b)); }
inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 b) { return b.__x; }
inline short __bfloat16_as_short(__nv_bfloat16 b) { return (short)b.__x; }
inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short u) { return __nv_bfloat16(__nv_bfloat16_raw{u}); }
inline __nv_bfloat16 __short_as_bfloat16(short u) { return __nv_bfloat16(__nv_bfloat16_raw{(unsigned short)u}); }
inline __nv_bfloat162 __float2bfloat162_rn(float f) { return __nv_bfloat162{__nv_bfloat16(f), __nv_bfloat16(f)}; }
inline __nv_bfloat162 __floats2bfloat162_rn(float a, float b) {
    return __nv_bfloat162{__nv_bfloat16(a), __nv_bfloat16(b)};
}
inline __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 a) { return __nv_bfloat162{a, a}; }
inline __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat162{a, b}; }
inline __nv_bfloat16 __low2bfloat16(__nv_bfloat162 a) { return a.x; }
inline __nv_bfloat16 __high2bfloat16(__nv_bfloat162 a) { return a.y; }
inline float2 __bfloat1622float2(__nv_bfloat162 a) { return float2{float(a.x), float(a.y)}; }
inline __nv_bfloat162 __float22bfloat162_rn(float2 a) { return __nv_bfloat162{__nv_bfloat16(a.x), __nv_bfloat16(a.y)}; }
inline __half __float2half_rz(float f) { return __half(f); }   // rounds to nearest: rounding modes not modelled

// Half atomics and shuffles go through the templates above (atomic_ref of the 2-byte struct; slot copies).

#define CUDART_INF_FP16         __ushort_as_half((unsigned short)0x7C00U)
#define CUDART_NAN_FP16         __ushort_as_half((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_FP16  __ushort_as_half((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_FP16  __ushort_as_half((unsigned short)0x7BFFU)
#define CUDART_NEG_ZERO_FP16    __ushort_as_half((unsigned short)0x8000U)
#define CUDART_ZERO_FP16        __ushort_as_half((unsigned short)0x0000U)
#define CUDART_ONE_FP16         __ushort_as_half((unsigned short)0x3C00U)
#define CUDART_INF_BF16         __ushort_as_bfloat16((unsigned short)0x7F80U)
#define CUDART_NAN_BF16         __ushort_as_bfloat16((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_BF16  __ushort_as_bfloat16((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_BF16  __ushort_as_bfloat16((unsigned short)0x7F7FU)
#define CUDART_NEG_ZERO_BF16    __ushort_as_bfloat16((unsigned short)0x8000U)
#define CUDART_ZERO_BF16        __ushort_as_bfloat16((unsigned short)0x0000U)
#define CUDART_ONE_BF16         __ushort_as_bfloat16((unsigned short)0x3F80U)

// ---------------------------------------------------------------------------------------------------------------
// The launcher (emulate.py appends `extern "C" optiml_launch` calling optiml::launch with the kernel's address).

namespace optiml {

// Argument kinds as emulate.py passes them: p pointer, i signed integer, u unsigned integer, f float, h __half,
// b __nv_bfloat16, ? bool; with the byte size of the storage.
template <class P>
inline const char* argument_mismatch(char kind, int size) {
    using T = std::remove_cvref_t<P>;
    if constexpr (std::is_pointer_v<T>) {
        return kind == 'p' ? nullptr : "a pointer";
    } else if constexpr (std::is_same_v<T, bool>) {
        return kind == '?' ? nullptr : "a bool";
    } else if constexpr (std::is_same_v<T, __half>) {
        return kind == 'h' ? nullptr : "a __half";
    } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
        return kind == 'b' ? nullptr : "a __nv_bfloat16";
    } else if constexpr (std::is_floating_point_v<T>) {
        return kind == 'f' && size == int(sizeof(T)) ? nullptr : (sizeof(T) == 4 ? "a float" : "a double");
    } else if constexpr (std::is_integral_v<T> || std::is_enum_v<T>) {
        if ((kind == 'i' || kind == 'u') && size == int(sizeof(T))) return nullptr;
        switch (sizeof(T)) {
            case 1: return "an 8-bit integer";
            case 2: return "a 16-bit integer";
            case 4: return "a 32-bit integer";
            default: return "a 64-bit integer";
        }
    } else {
        return "a type the emulator cannot pass (structs and classes by value are not supported)";
    }
}

template <class P>
inline std::remove_cvref_t<P> argument(void* slot) {
    using T = std::remove_cvref_t<P>;
    if constexpr (std::is_trivially_copyable_v<T> && std::is_default_constructible_v<T>) {
        T value;
        std::memcpy(static_cast<void*>(&value), slot, sizeof(T));
        return value;
    } else {
        fail("a kernel parameter of a type the emulator cannot pass");
    }
}

struct Launch {
    unsigned grid[3], block[3], cluster[3];   // cluster: blocks along each axis (1, 1, 1 without __cluster_dims__)
    unsigned long long blocks;
    int threads;
    int cluster_blocks;
    bool clustered;                           // the kernel has __cluster_dims__
    unsigned long long smem;
    void (*call)(void* kernel, void** args);   // runs the kernel on the calling thread
    void* kernel;
    void** args;
};

inline void set_block(const Launch& l, unsigned long long b) {
    blockIdx = uint3{unsigned(b % l.grid[0]), unsigned(b / l.grid[0] % l.grid[1]),
                     unsigned(b / ((unsigned long long)l.grid[0] * l.grid[1]))};
}

inline void set_thread(const Launch& l, int t) {
    threadIdx = uint3{unsigned(t % l.block[0]), unsigned(t / l.block[0] % l.block[1]),
                      unsigned(t / (l.block[0] * l.block[1]))};
    blockDim = dim3(l.block[0], l.block[1], l.block[2]);
    gridDim = dim3(l.grid[0], l.grid[1], l.grid[2]);
}

inline void run_thread(const Launch& l) {
    try {
        l.call(l.kernel, l.args);
    } catch (const Abort&) {
    } catch (const std::exception& error) {
        char text[600];
        std::snprintf(text, sizeof text, "the kernel threw an exception: %s", error.what());
        record_error(text);
    } catch (...) {
        record_error("the kernel threw an exception");
    }
}

// A thread that leaves the kernel (at its end or by an early return) leaves its block's and warp's barriers.
struct ExitGuard {
    ~ExitGuard() {
        if (t_warp) {
            __atomic_fetch_and(&t_warp->active, ~(1u << t_lane), __ATOMIC_ACQ_REL);
            t_warp->barrier.arrive_and_drop();
        }
        if (t_block) t_block->barrier.arrive_and_drop();
        if (t_cluster) t_cluster->arrive_and_drop();
    }
};

inline void poison_smem(const Launch& l) {
    if (l.smem) std::memset(dynamic_smem, 0xff, l.smem);   // NaN for floats, -1 for integers: reads before writes show
}

inline void run_sequential(const Launch& l) {
    t_block = nullptr;
    t_warp = nullptr;
    for (unsigned long long b = 0; b < l.blocks && !aborted(); b++) {
        set_block(l, b);
        poison_smem(l);
        for (int t = 0; t < l.threads && !aborted(); t++) {
            set_thread(l, t);
            run_thread(l);
        }
    }
}

struct Team {
    const Launch* launch;
    BlockState* blocks[kMaxClusterBlocks];   // the running cluster's blocks' barriers; replaced between clusters
    Barrier* cluster;                         // the running cluster's barrier (__cluster_barrier_wait)
    Barrier* between_clusters;
};

inline void make_cluster(Team& team) {
    const Launch& l = *team.launch;
    for (int r = 0; r < l.cluster_blocks; r++) team.blocks[r] = new BlockState(l.threads);
    team.cluster = new Barrier(l.threads * l.cluster_blocks, "__cluster_barrier_wait");
    poison_smem(l);
}

inline void free_cluster(Team& team) {
    for (int r = 0; r < team.launch->cluster_blocks; r++) delete team.blocks[r];
    delete team.cluster;
}

inline void next_cluster(void* arg) {   // every thread is waiting between clusters: no one uses the old state
    Team& team = *static_cast<Team*>(arg);
    free_cluster(team);
    make_cluster(team);
}

// The block of rank `rank` in cluster number `k` (clusters and their blocks numbered x fastest, as CUDA's ranks).
inline void set_cluster_block(const Launch& l, unsigned long long k, int rank) {
    const unsigned long long across[3] = {l.grid[0] / l.cluster[0], l.grid[1] / l.cluster[1], 0};
    const unsigned long long position[3] = {k % across[0], k / across[0] % across[1], k / (across[0] * across[1])};
    const unsigned within[3] = {rank % l.cluster[0], rank / l.cluster[0] % l.cluster[1],
                                rank / (l.cluster[0] * l.cluster[1])};
    blockIdx = uint3{unsigned(position[0] * l.cluster[0] + within[0]),
                     unsigned(position[1] * l.cluster[1] + within[1]),
                     unsigned(position[2] * l.cluster[2] + within[2])};
}

struct WorkerArg {
    Team* team;
    int worker;          // the block's rank in the cluster times the block's threads, plus the thread
};

inline void* team_worker(void* arg) {
    Team& team = *static_cast<WorkerArg*>(arg)->team;
    const Launch& l = *team.launch;
    const int worker = static_cast<WorkerArg*>(arg)->worker, rank = worker / l.threads, t = worker % l.threads;
    set_thread(l, t);
    t_lane = t % 32;
    t_cluster_rank = rank;
    try {
        for (unsigned long long k = 0; k < l.blocks / l.cluster_blocks; k++) {
            set_cluster_block(l, k, rank);
            t_block = team.blocks[rank];
            t_warp = &t_block->warps[t / 32];
            t_cluster = l.clustered ? team.cluster : nullptr;
            t_cluster_arrived = false;
            t_sync_calls = 0;
            t_warp_calls = 0;
            {
                ExitGuard guard;
                run_thread(l);
            }
            t_block = nullptr;
            t_warp = nullptr;
            t_cluster = nullptr;
            team.between_clusters->arrive_and_wait();   // the last to arrive makes the next cluster's state
            if (aborted()) break;
        }
    } catch (const Abort&) {
    }
    t_block = nullptr;
    t_warp = nullptr;
    t_cluster = nullptr;
    return nullptr;
}

// Every CUDA thread of a cluster's blocks (of a block, without clusters) an OS thread, the clusters one at a time.
inline void run_cooperative(const Launch& l) {
    const int workers = l.threads * l.cluster_blocks;
    Team team{&l, {}, nullptr, new Barrier(workers, "the end of a block", false)};
    make_cluster(team);
    team.between_clusters->on_complete = next_cluster;
    team.between_clusters->on_complete_arg = &team;
    pthread_t* handles = new pthread_t[workers];
    WorkerArg* args = new WorkerArg[workers];
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setstacksize(&attributes, 2 << 20);
    int started = 0;
    for (; started < workers; started++) {
        args[started] = WorkerArg{&team, started};
        if (pthread_create(&handles[started], &attributes, team_worker, &args[started]) != 0) {
            char text[300];
            std::snprintf(text, sizeof text, "cannot start %d threads for one %s (the emulator runs each CUDA "
                                             "thread of a block as an OS thread)", workers,
                          l.cluster_blocks > 1 ? "cluster" : "block");
            record_error(text);
            break;
        }
    }
    pthread_attr_destroy(&attributes);
    for (int t = 0; t < started; t++) pthread_join(handles[t], nullptr);
    delete[] handles;
    delete[] args;
    delete team.between_clusters;
    free_cluster(team);
}

template <class... P, std::size_t... J>
int first_mismatch(const char* kinds, const int* sizes, const char** wanted, std::index_sequence<J...>) {
    int index = -1;
    ((index < 0 && (*wanted = argument_mismatch<P>(kinds[J], sizes[J])) != nullptr ? (index = int(J)) : 0), ...);
    return index;
}

inline void kind_name(char kind, int size, char* out, int out_size) {
    switch (kind) {
        case 'p': std::snprintf(out, out_size, "a pointer"); break;
        case '?': std::snprintf(out, out_size, "a bool"); break;
        case 'h': std::snprintf(out, out_size, "a __half"); break;
        case 'b': std::snprintf(out, out_size, "a __nv_bfloat16"); break;
        case 'f': std::snprintf(out, out_size, size == 4 ? "a float" : "a double"); break;
        default:
            std::snprintf(out, out_size, "a %d-bit %sinteger", 8 * size, kind == 'u' ? "unsigned " : "");
    }
}

template <class... P, std::size_t... I>
void invoke(void (*kernel)(P...), void** args, std::index_sequence<I...>) {
    kernel(argument<P>(args[I])...);
}

template <class... P>
void call_kernel(void* kernel, void** args) {
    invoke(reinterpret_cast<void (*)(P...)>(kernel), args, std::index_sequence_for<P...>{});
}

// Runs the kernel over the launch. Returns 0, or 1 with a one-line message in `error`; a message that starts with
// "#N|" is about parameter N.
template <class... P>
int launch(void (*kernel)(P...), void** args, const char* kinds, const int* sizes, int nargs,
           const unsigned* geometry, unsigned long long smem, int cooperative, double barrier_timeout_s, char* error,
           int error_size) {
    if (nargs != int(sizeof...(P))) {
        std::snprintf(error, error_size, "the kernel has %d parameters; the contract passes %d", int(sizeof...(P)),
                      nargs);
        return 1;
    }
    const char* wanted = nullptr;
    const int index = first_mismatch<P...>(kinds, sizes, &wanted, std::index_sequence_for<P...>{});
    if (index >= 0) {
        char given[100];
        kind_name(kinds[index], sizes[index], given, sizeof given);
        std::snprintf(error, error_size, "#%d|the kernel declares %s where the contract passes %s", index, wanted,
                      given);
        return 1;
    }
    if (smem > kDynamicSmemBytes) {
        std::snprintf(error, error_size, "dynamic shared memory of %llu bytes exceeds the emulator's %llu", smem,
                      kDynamicSmemBytes);
        return 1;
    }
    Launch l;
    for (int i = 0; i < 3; i++) {
        l.grid[i] = geometry[i];
        l.block[i] = geometry[3 + i];
        l.cluster[i] = geometry[6 + i];
    }
    l.blocks = (unsigned long long)l.grid[0] * l.grid[1] * l.grid[2];
    l.threads = int(l.block[0] * l.block[1] * l.block[2]);
    l.cluster_blocks = int(l.cluster[0] * l.cluster[1] * l.cluster[2]);
    l.clustered = geometry[9] != 0;
    if (l.threads < 1 || l.threads > 1024 || l.blocks < 1) {
        std::snprintf(error, error_size, "a launch of %llu blocks of %d threads", l.blocks, l.threads);
        return 1;
    }
    if (l.cluster_blocks < 1 || l.cluster_blocks > kMaxClusterBlocks || l.grid[0] % l.cluster[0] ||
        l.grid[1] % l.cluster[1] || l.grid[2] % l.cluster[2]) {
        std::snprintf(error, error_size, "a grid of (%u, %u, %u) blocks in clusters of (%u, %u, %u): a cluster "
                      "holds 1 to %d blocks, and the grid must be a whole number of clusters along each axis",
                      l.grid[0], l.grid[1], l.grid[2], l.cluster[0], l.cluster[1], l.cluster[2], kMaxClusterBlocks);
        return 1;
    }
    if (l.clustered && smem) {
        std::snprintf(error, error_size, "dynamic shared memory in a kernel of thread-block clusters (the emulator "
                      "keeps one copy of it, not one per block)");
        return 1;
    }
    l.smem = smem;
    l.call = call_kernel<P...>;
    l.kernel = reinterpret_cast<void*>(kernel);
    l.args = args;
    __atomic_store_n(&g_abort, false, __ATOMIC_RELEASE);
    g_error[0] = 0;
    g_barrier_timeout_s = barrier_timeout_s;
    if (cooperative || l.clustered)
        run_cooperative(l);
    else
        run_sequential(l);
    if (aborted()) {
        std::snprintf(error, error_size, "%s", g_error[0] ? g_error : "the launch failed");
        return 1;
    }
    return 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Access tracing (contract inference, source/infer.py): a kernel whose memory accesses were wrapped in
// optiml::touch(lvalue, kind) marks each element it reads (1), writes (2) or updates atomically (4) of the arrays
// registered with
// optiml_trace; an access outside them (shared memory, locals) marks nothing.

struct TracedArray {
    const char* begin;
    const char* end;
    unsigned long long element_size;
    unsigned char* marks;            // one per element
};

inline TracedArray g_traced[64];
inline int g_traced_count = 0;

inline void mark(const volatile void* address, unsigned long long bytes, int kind) {
    const char* first = (const char*)(const void*)address;
    for (int i = 0; i < g_traced_count; i++) {
        const TracedArray& array = g_traced[i];
        if (first < array.begin || first >= array.end) continue;
        const char* last = first + bytes - 1 < array.end ? first + bytes - 1 : array.end - 1;
        for (unsigned long long e = (first - array.begin) / array.element_size;
             e <= (unsigned long long)(last - array.begin) / array.element_size; e++)
            __atomic_or_fetch(&array.marks[e], (unsigned char)kind, __ATOMIC_RELAXED);
        return;
    }
}

template <class T>
T& touch(T& element, int kind) {
    mark(&element, sizeof(T), kind);
    return element;
}

}  // namespace optiml

extern "C" __attribute__((visibility("default"))) void optiml_trace(int count, const void* const* begins,
                                                                  const unsigned long long* lengths,
                                                                  const unsigned long long* element_sizes,
                                                                  unsigned char* const* marks) {
    optiml::g_traced_count = count < 64 ? count : 64;
    for (int i = 0; i < optiml::g_traced_count; i++)
        optiml::g_traced[i] = {(const char*)begins[i], (const char*)begins[i] + lengths[i] * element_sizes[i],
                               element_sizes[i], marks[i]};
}
