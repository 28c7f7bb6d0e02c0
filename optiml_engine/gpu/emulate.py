"""Run a candidate's kernel on the CPU: CI has g++ but no GPU, and still has to check that kernels compute what they
should.

The compile unit (device code only) is compiled by g++ behind a shim header, emulate_shim.h, which g++ includes
before the unit: CUDA's qualifiers become nothing (`__shared__` becomes `static`), threadIdx and friends are
thread-local globals, and CUDA's intrinsics (math, atomics, warp shuffles, __half and __nv_bfloat16...) are
written in C++. The unit's `#include <cuda_*.h>` lines resolve to empty stand-ins in a directory this module writes;
standard headers are libstdc++'s own. No parser is involved: the only rewrites of the text are `extern __shared__`
arrays (dynamic shared memory, which C++ cannot declare), in a kernel of thread-block clusters its `__shared__`
arrays (a copy per block of the cluster), and the launcher appended at the end, which calls the kernel through a
pointer to `unit.name_expression`, so every argument is read as the kernel's own parameter type.

Execution: the blocks of the grid run one after another. A kernel whose threads synchronize (__syncthreads, warp
intrinsics) runs each CUDA thread of a block as an OS thread (a pool made per launch and reused by its blocks), so
barriers and shuffles meet for real; a thread that returns early leaves its block's and warp's barriers. A kernel
of clusters (`__cluster_dims__`) runs a cluster's blocks at once, every thread of them an OS thread, with the
cluster barrier (__cluster_barrier_arrive / __cluster_barrier_wait) and __cluster_map_shared_rank. Any other
kernel runs its threads one at a time on the calling thread, which is one of the schedules a GPU may choose and is
fast (a million threads of an elementwise kernel in a few hundredths of a second). Synchronizing kernels cost some
milliseconds per block of 256 threads on a small machine (context switches at every barrier): give them check sizes
of tens or hundreds of blocks, not thousands.

Limits: out-of-bounds accesses are undefined behaviour here as on the GPU (they may crash the process or go
unnoticed; the emulator does not check them). Static __shared__ memory starts zeroed and keeps its contents from
block to block (on a GPU it is undefined), so a read before a write goes unnoticed there; dynamic shared memory is
filled with 0xff bytes (NaN, -1) before every block. Warp intrinsics must be called by every active lane of the
warp (a shuffle inside a branch that only some lanes take deadlocks, and is reported after `barrier_timeout_s`);
warp-synchronous code that skips __syncwarp is not emulated; rounding-mode intrinsics (_rz, _ru, _rd) round to
nearest; fast-math intrinsics (__expf...) are computed accurately. Inline PTX, cooperative groups, wmma/mma,
pipelines and texture objects are not supported: they raise EmulationError before or when g++ compiles. Blocks
that wait for later blocks, and infinite loops, hang.

Compiled libraries are cached under `cache_dir()/emulate`, keyed by the unit text, the shim and the compiler.
"""

from __future__ import annotations

import ctypes
import functools
import os
import re
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import Any

import numpy as np

from optiml_engine.cache import cache_dir, content_key
from optiml_engine.gpu.compile import kernel_location
from optiml_engine.gpu.data import bf16_from_float32, poisoned, storage_dtype
from optiml_engine.model import ArraySpec, Candidate, CompileUnit, Dtype, Location, OptimlError
from optiml_engine.source.contract import resolve

SHIM = Path(__file__).with_name("emulate_shim.h")
SHIM_VERSION = "2"        # bump when the launcher protocol below changes (the shim's text is in the key anyway)
GXX_FLAGS = ("-std=c++20", "-O1", "-pthread", "-fPIC", "-shared", "-w", "-fno-strict-aliasing",
             "-fvisibility=hidden", "-fno-gnu-unique")
COMPILE_TIMEOUT_S = 300
ALIGNMENT = 256           # bytes: where every array starts, as with cudaMalloc
BARRIER_TIMEOUT_S = 30.0
LAUNCHER_FILE = "<optiml-emulate-launcher>"

# CUDA headers a unit may include: everything they declare comes from the shim. Headers for what the emulator does
# not support stop the compile at the #include with a message that says so.
_STAND_INS = (
    "cuda_runtime.h", "cuda_runtime_api.h", "cuda.h", "device_launch_parameters.h", "device_functions.h",
    "device_atomic_functions.h", "sm_20_atomic_functions.h", "sm_32_atomic_functions.h", "sm_60_atomic_functions.h",
    "sm_20_intrinsics.h", "sm_30_intrinsics.h", "sm_32_intrinsics.h", "sm_35_intrinsics.h", "sm_61_intrinsics.h",
    "math_functions.h", "math_constants.h", "vector_types.h", "vector_functions.h", "builtin_types.h",
    "driver_types.h", "host_defines.h", "cuda_fp16.h", "cuda_fp16.hpp", "cuda_bf16.h", "cuda_bf16.hpp",
    "cuda_device_runtime_api.h", "crt/host_defines.h", "crt/math_functions.h", "crt/device_functions.h",
)
# libcu++'s <cuda/std/X>: the host's <X>, its names also in cuda::std.
_LIBCUXX_FORWARDS = ("cstdint", "cstddef", "climits", "cfloat", "cmath", "limits", "type_traits", "utility")
_UNSUPPORTED_HEADERS = {
    "cooperative_groups.h": "cooperative groups", "cooperative_groups/reduce.h": "cooperative groups",
    "cooperative_groups/memcpy_async.h": "cooperative groups", "cooperative_groups/scan.h": "cooperative groups",
    "mma.h": "wmma (tensor core) operations", "cuda_pipeline.h": "cuda pipelines",
    "cuda_pipeline_primitives.h": "cuda pipelines", "cuda_awbarrier.h": "asynchronous barriers",
    "cuda_awbarrier_primitives.h": "asynchronous barriers", "cuda_fp8.h": "8-bit floats", "cuda_fp6.h": "6-bit floats",
    "cuda_fp4.h": "4-bit floats", "cuda_fp8.hpp": "8-bit floats",
}

# What makes a kernel's threads meet: such a kernel runs every CUDA thread of a block as an OS thread.
_COOPERATIVE = re.compile(
    r"\b(?:__syncthreads\w*|__syncwarp|__shfl\w*|__ballot_sync|__any_sync|__all_sync|__uni_sync|__activemask"
    r"|__match_(?:any|all)_sync|__reduce_\w+_sync)\b")
_INLINE_ASM = re.compile(r"\b(?:asm|__asm__|__asm)\b\s*(?:volatile\b|__volatile__\b|goto\b|inline\b)?\s*\(")
# `extern __shared__ [__align__(N)] TYPE NAME[];`: dynamic shared memory, a pointer into the shim's buffer instead.
_EXTERN_SHARED = re.compile(
    r"\bextern\s+(?P<decl>(?:(?:__shared__|__align__\s*\(\s*\w+\s*\)|alignas\s*\(\s*\w+\s*\)"
    r"|[A-Za-z_][\w:]*(?:\s*<[^<>;{}()]*>)?|\*)\s*)+?)(?P<name>[A-Za-z_]\w*)\s*\[\s*\]\s*;")
_ALIGNMENT = re.compile(r"\b(?:__align__|alignas)\s*\(\s*\w+\s*\)")
# A kernel of thread-block clusters, `__cluster_dims__(X, Y, Z)` or the attribute it stands for: its blocks along x,
# y and z.
_CLUSTER_DIMS = re.compile(r"(?:\b__cluster_dims__|\b__attribute__\s*\(\s*\(\s*cluster_dims)\s*\(\s*(\d+)\s*"
                           r"(?:,\s*(\d+)\s*)?(?:,\s*(\d+)\s*)?\)")
# `__shared__ TYPE NAME[N]...;`: in a kernel of clusters, an array of copies, one per block of the cluster.
_SHARED_DECLARATION = re.compile(
    r"\b__shared__\s+(?P<type>(?:[A-Za-z_][\w:]*\s+)*?[A-Za-z_][\w:]*)\s+(?P<name>[A-Za-z_]\w*)\s*"
    r"(?P<dims>(?:\[[^\[\];]+\]\s*)*);")
_SHARED = re.compile(r"\b__shared__\b")
# `static __shared__` (a helper's block scratch, as CUDA's samples write it): `__shared__` is `static` already.
_STATIC_SHARED = re.compile(r"\bstatic[ \t]+__shared__\b|\b__shared__[ \t]+static\b")
_NOT_CODE = re.compile(r"//[^\n]*|/\*.*?(?:\*/|\Z)|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.DOTALL)
_LINE_DIRECTIVE = re.compile(r'^\s*#\s*(?:line\s+)?(\d+)\s+"([^"]*)"')
_GXX_ERROR = re.compile(r"(?:fatal )?error: (?P<message>.*)$")
_GXX_PLACE = re.compile(
    r"^(?:In file included from |\s+from )?(?P<file>[^:\n]+?):(?P<line>\d+)(?::(?P<column>\d+))?[:,]")

# Scalar argument kinds the shim's launcher checks against the kernel's parameter types.
_SCALAR_KIND: dict[str, tuple[str, Any]] = {
    "float32": ("f", ctypes.c_float), "float64": ("f", ctypes.c_double),
    "int8": ("i", ctypes.c_int8), "int16": ("i", ctypes.c_int16), "int32": ("i", ctypes.c_int32),
    "int64": ("i", ctypes.c_int64), "uint8": ("u", ctypes.c_uint8), "uint16": ("u", ctypes.c_uint16),
    "uint32": ("u", ctypes.c_uint32), "uint64": ("u", ctypes.c_uint64), "bool": ("?", ctypes.c_bool),
    "float16": ("h", ctypes.c_uint16), "bfloat16": ("b", ctypes.c_uint16),
}


class EmulationError(OptimlError):
    """The emulator cannot compile or run the kernel: something it does not support, a g++ error, or a failure while
    the kernel ran (a deadlock at a barrier, a device assertion, __trap). Located and one line, like every
    OptimlError."""


def run_on_cpu(candidate: Candidate, binding: dict[str, int], inputs: dict[str, np.ndarray], *,
               threads: bool | None = None, barrier_timeout_s: float = BARRIER_TIMEOUT_S) -> dict[str, np.ndarray]:
    """Launches the candidate's kernel on the CPU at `binding` (a size binding of its contract) and returns its
    out and inout arrays. `inputs` holds the in and inout arrays (numpy, storage dtypes as optiml_engine/gpu/data.py
    defines them: bfloat16 as uint16 bit patterns); out arrays are poisoned first with
    data.poisoned(np, dtype, length, 0). Every array is a private copy starting on a 256-byte boundary.

    `threads` forces (True) or forbids (False) running each CUDA thread of a block as an OS thread; by default only
    kernels that synchronize their threads do. Raises EmulationError when the kernel cannot be compiled or fails
    while it runs, ValueError/KeyError when `inputs` do not fit the contract."""
    return _run(candidate, binding, inputs, threads, barrier_timeout_s, None)


TRACE_READ, TRACE_WRITE, TRACE_ATOMIC = 1, 2, 4


def run_traced(candidate: Candidate, binding: dict[str, int], inputs: dict[str, np.ndarray]
               ) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """run_on_cpu for a kernel whose memory accesses the caller wrapped in `::optiml::touch(lvalue, kind)`
    (kind: TRACE_READ, TRACE_WRITE, TRACE_ATOMIC or-ed together): also returns, per array parameter, one byte per element with the kinds
    of access it received."""
    marks: dict[str, np.ndarray] = {}
    return _run(candidate, binding, inputs, None, BARRIER_TIMEOUT_S, marks), marks


def _run(candidate: Candidate, binding: dict[str, int], inputs: dict[str, np.ndarray], threads: bool | None,
         barrier_timeout_s: float, marks: dict[str, np.ndarray] | None) -> dict[str, np.ndarray]:
    contract = candidate.contract
    resolved = resolve(contract, binding)
    library = load_library(candidate.unit)
    arrays = {spec.param: spec for spec in contract.arrays}
    scalars = {spec.param: spec for spec in contract.scalars}
    buffers: dict[str, np.ndarray] = {}
    for spec in contract.arrays:
        length = resolved.lengths[spec.param]
        if spec.direction == "out":
            buffers[spec.param] = _aligned(poisoned(np, spec.dtype, length, 0))
        else:
            if spec.param not in inputs:
                raise KeyError(f"no input array for '{spec.param}' ({spec.direction} {spec.dtype}[{spec.length}])")
            buffers[spec.param] = _input_array(spec, length, inputs[spec.param])

    storage: list[Any] = []
    kinds, sizes = [], []
    for name in candidate.params:
        if name in arrays:
            cell: Any = ctypes.c_void_p(buffers[name].ctypes.data)
            kinds.append("p")
        elif name in scalars:
            kind, ctype = _SCALAR_KIND[scalars[name].dtype]
            cell = ctype(_scalar_bits(scalars[name].dtype, resolved.scalars[name]))
            kinds.append(kind)
        else:
            raise EmulationError(contract.location, f"parameter '{name}' of {candidate.unit.kernel} is neither an "
                                                    f"array nor a scalar of the contract")
        storage.append(cell)
        sizes.append(ctypes.sizeof(cell))
    count = len(storage)
    if marks is not None:
        traced = [name for name in candidate.params if name in arrays]
        for name in traced:
            marks[name] = np.zeros(buffers[name].size, dtype=np.uint8)
        library.handle.optiml_trace(
            len(traced), (ctypes.c_void_p * max(len(traced), 1))(*[buffers[n].ctypes.data for n in traced]),
            (ctypes.c_ulonglong * max(len(traced), 1))(*[buffers[n].size for n in traced]),
            (ctypes.c_ulonglong * max(len(traced), 1))(*[buffers[n].itemsize for n in traced]),
            (ctypes.c_void_p * max(len(traced), 1))(*[marks[n].ctypes.data for n in traced]))
    args = (ctypes.c_void_p * max(count, 1))(*[ctypes.addressof(cell) for cell in storage])
    cluster = library.cluster or (1, 1, 1)
    geometry = (ctypes.c_uint * 10)(*resolved.grid, *resolved.block, *cluster, library.cluster is not None)
    error = ctypes.create_string_buffer(2048)
    cooperative = library.cooperative if threads is None else threads
    with library.lock:
        status = library.launch(args, "".join(kinds).encode() or b"\0", (ctypes.c_int * max(count, 1))(*sizes),
                                count, geometry, resolved.smem, int(cooperative), float(barrier_timeout_s), error,
                                len(error))
    if status != 0:
        message = error.value.decode(errors="replace")
        if (parameter := re.match(r"#(\d+)\|", message)) is not None:
            message = f"parameter '{candidate.params[int(parameter.group(1))]}': {message[parameter.end():]}"
        raise EmulationError(kernel_location(candidate.unit), f"the CPU emulator could not run "
                                                              f"{candidate.unit.name_expression}: {message}")
    return {spec.param: buffers[spec.param] for spec in contract.arrays if spec.direction != "in"}


# ---------------------------------------------------------------------------------------------------------------
# Arguments


def _input_array(spec: ArraySpec, length: int, given: Any) -> np.ndarray:
    """A private, contiguous copy of an input in the dtype's storage type."""
    storage = np.dtype(storage_dtype(spec.dtype))
    array = np.asarray(given).reshape(-1)
    if array.dtype != storage:
        if spec.dtype in ("float16", "bfloat16") and array.dtype.itemsize == 2 and array.dtype.kind in "fu" and \
                (spec.dtype == "float16" or array.dtype.kind == "u"):
            array = array.view(storage)
        elif spec.dtype == "bfloat16" and array.dtype.kind == "f":
            array = bf16_from_float32(np, array)
        elif array.dtype.kind in "biuf" and (array.dtype.kind == storage.kind or
                                             np.can_cast(array.dtype, storage, "same_kind")):
            array = array.astype(storage)
        else:
            raise ValueError(f"input '{spec.param}' is {array.dtype}; the contract says {spec.dtype} "
                             f"(stored as {storage})")
    if array.size != length:
        raise ValueError(f"input '{spec.param}' has {array.size} elements; its length {spec.length} is {length} "
                         f"at this binding")
    return _aligned(array)


def _aligned(array: np.ndarray) -> np.ndarray:
    """A copy of `array` whose data starts on a 256-byte boundary, as cudaMalloc's do: kernels that load float4s
    (and g++'s aligned vector instructions for them) rely on it."""
    raw = np.empty(array.nbytes + ALIGNMENT, dtype=np.uint8)
    offset = -raw.ctypes.data % ALIGNMENT
    copy = raw[offset:offset + array.nbytes].view(array.dtype)
    copy[...] = array
    return copy


def _scalar_bits(dtype: Dtype, value: float) -> float | bool:
    if dtype == "float16":
        return int(np.array([value], dtype=np.float16).view(np.uint16)[0])
    if dtype == "bfloat16":
        return int(bf16_from_float32(np, np.array([value], dtype=np.float32))[0])
    if dtype == "bool":
        return bool(value)
    return value


# ---------------------------------------------------------------------------------------------------------------
# Compiling and loading


class Library:
    """A compiled unit, loaded: its launcher, whether its threads synchronize, its cluster's blocks along x, y and
    z (None: no `__cluster_dims__`), and a lock (the library's shared memory and launch state are process globals:
    one launch at a time)."""

    def __init__(self, path: Path, cooperative: bool, cluster: tuple[int, int, int] | None):
        self.path = path
        self.cooperative = cooperative
        self.cluster = cluster
        self.lock = threading.Lock()
        self.handle = ctypes.CDLL(str(path), mode=os.RTLD_LOCAL)
        self.launch = self.handle.optiml_launch
        self.launch.restype = ctypes.c_int
        self.launch.argtypes = [
            ctypes.POINTER(ctypes.c_void_p), ctypes.c_char_p, ctypes.POINTER(ctypes.c_int), ctypes.c_int,
            ctypes.POINTER(ctypes.c_uint), ctypes.c_ulonglong, ctypes.c_int, ctypes.c_double, ctypes.c_char_p,
            ctypes.c_int,
        ]


_loaded: dict[Path, Library] = {}
_loaded_lock = threading.Lock()
_building: dict[str, threading.Lock] = {}


def load_library(unit: CompileUnit) -> Library:
    """The unit compiled for the emulator (from the cache when it was compiled before) and loaded."""
    source = emulator_source(unit)
    key = _key(source)
    path = _folder() / f"{key}.so"
    with _loaded_lock:
        if path in _loaded:
            return _loaded[path]
        building = _building.setdefault(key, threading.Lock())
    with building:
        if not path.exists():
            _compile(unit, source, path)
        with _loaded_lock:
            if path not in _loaded:
                code = _code_only(unit.text)
                _loaded[path] = Library(path, cooperative=_COOPERATIVE.search(code) is not None,
                                        cluster=_cluster_dims(unit, code))
            return _loaded[path]


def emulator_source(unit: CompileUnit) -> str:
    """The unit as g++ compiles it: `extern __shared__` arrays made pointers into the shim's dynamic shared memory,
    or in a unit of clusters every `__shared__` array a copy per block (lines kept, so #line directives still hold),
    and the launcher appended. Raises EmulationError for inline assembly (PTX, which no host assembler takes)."""
    code = _code_only(unit.text)
    if (asm := _INLINE_ASM.search(code)) is not None:
        raise EmulationError(_unit_location(unit, asm.start()), "inline PTX assembly cannot run on the CPU emulator",
                             "CUDA C++ without asm statements")
    if _cluster_dims(unit, code) is not None:
        return _STATIC_SHARED.sub("__shared__", _with_block_copies(unit, code)) + _launcher(unit)
    pieces, last = [], 0
    for match in _EXTERN_SHARED.finditer(code):
        words = match.group("decl")
        if not re.search(r"\b__shared__\b", words):
            continue
        element = " ".join(_ALIGNMENT.sub(" ", re.sub(r"\b__shared__\b", " ", words)).split())
        name = match.group("name")
        if not element:
            continue
        newlines = "\n" * unit.text.count("\n", match.start(), match.end())
        pieces.append(unit.text[last:match.start()])
        pieces.append(f"{element}* const {name} = reinterpret_cast<{element}*>(optiml_dynamic_smem);{newlines}")
        last = match.end()
    pieces.append(unit.text[last:])
    return _STATIC_SHARED.sub("__shared__", "".join(pieces)) + _launcher(unit)


def _launcher(unit: CompileUnit) -> str:
    return (
        f'\n#line 1 "{LAUNCHER_FILE}"\n'
        f'extern "C" __attribute__((visibility("default"))) int optiml_launch(void** args, const char* kinds, '
        f"const int* sizes, int nargs, const unsigned* geometry, unsigned long long smem, int cooperative, "
        f"double barrier_timeout_s, char* error, int error_size) {{\n"
        f"    return ::optiml::launch(&{unit.name_expression}, args, kinds, sizes, nargs, geometry, smem, "
        f"cooperative, barrier_timeout_s, error, error_size);\n"
        f"}}\n"
    )


def _cluster_dims(unit: CompileUnit, code: str) -> tuple[int, int, int] | None:
    """The blocks along x, y and z of the unit's thread-block clusters (`__cluster_dims__`), None without them.
    Raises EmulationError for two different sizes in one unit (which kernel is launched is not known here)."""
    found = {tuple(int(d or 1) for d in match.groups()) for match in _CLUSTER_DIMS.finditer(code)}
    if len(found) > 1:
        raise EmulationError(kernel_location(unit), "kernels of different cluster sizes in one unit cannot run on "
                                                    "the CPU emulator", "one __cluster_dims__ per unit")
    return next(iter(found), None)


def _with_block_copies(unit: CompileUnit, code: str) -> str:
    """A unit of thread-block clusters with each `__shared__ TYPE NAME[N]...;` an array of copies, one per block of
    a cluster, NAME bound (per OS thread, which serves one block rank for a whole launch) to its block's copy: a
    cluster's blocks run at once. Any other form of `__shared__` raises EmulationError at its place."""
    pieces, last = [], 0
    declared = list(_SHARED_DECLARATION.finditer(code))
    starts = {match.start() for match in declared}
    for other in _SHARED.finditer(code):
        if other.start() not in starts:
            raise EmulationError(_unit_location(unit, other.start()), "in a kernel of thread-block clusters the "
                                 "CPU emulator runs only __shared__ declarations of one name", "__shared__ TYPE "
                                 "NAME[N]...; alone: no extern, initializer or second name")
    for match in declared:
        element, name, dims = match.group("type"), match.group("name"), "".join(match.group("dims").split())
        newlines = "\n" * unit.text.count("\n", match.start(), match.end())
        copies = f"{name}_optiml_copies"
        pieces += [unit.text[last:match.start()],
                   f"static {element} {copies}[::optiml::kMaxClusterBlocks]{dims}; static thread_local {element} "
                   f"(&{name}){dims} = ::optiml::block_copy({copies});{newlines}"]
        last = match.end()
    pieces.append(unit.text[last:])
    return "".join(pieces)


def _compile(unit: CompileUnit, source: str, target: Path) -> None:
    toolchain = _toolchain()
    with tempfile.TemporaryDirectory(prefix="build-", dir=target.parent) as workdir:
        source_path = Path(workdir) / "unit.cu"
        source_path.write_text(source)
        output = Path(workdir) / "unit.so"
        command = [_compiler(), *GXX_FLAGS, "-I", str(toolchain / "include"), "-include",
                   str(toolchain / SHIM.name), "-x", "c++", str(source_path), "-o", str(output)]
        try:
            completed = subprocess.run(command, capture_output=True, text=True, timeout=COMPILE_TIMEOUT_S,
                                       env=_plain_messages(), check=False)
        except subprocess.TimeoutExpired:
            raise EmulationError(kernel_location(unit), f"g++ did not finish within {COMPILE_TIMEOUT_S} s")
        if completed.returncode != 0:
            raise _compile_error(unit, completed.stderr, {str(source_path): "<unit>",
                                                          str(toolchain / SHIM.name): SHIM.name})
        os.replace(output, target)
        target.with_suffix(".cu").write_text(source)   # kept beside the library, for whoever debugs it


def _toolchain() -> Path:
    """A directory, made once per shim and compiler, that holds the shim, its precompiled form (which halves every
    compile: most of the work is parsing the shim and the standard headers) and `include/`, the directory of CUDA
    header stand-ins that -I puts first: empty ones, and #error ones for what is not supported."""
    folder = _folder() / f"toolchain-{_toolchain_key()[:16]}"
    if (folder / ".complete").exists():
        return folder
    staging = Path(tempfile.mkdtemp(prefix="toolchain-", dir=folder.parent))
    staging.chmod(0o755)
    try:
        (staging / SHIM.name).write_text(SHIM.read_text())
        include = staging / "include"
        for name in _STAND_INS:
            (include / name).parent.mkdir(parents=True, exist_ok=True)
            (include / name).write_text("#pragma once\n// CUDA header stand-in: the emulator's shim declares it all\n")
        for name in _LIBCUXX_FORWARDS:
            (include / "cuda" / "std").mkdir(parents=True, exist_ok=True)
            (include / "cuda" / "std" / name).write_text(
                f"#pragma once\n#include <{name}>\nnamespace cuda {{ namespace std {{ using namespace ::std; }} }}\n")
        for name, what in _UNSUPPORTED_HEADERS.items():
            (include / name).parent.mkdir(parents=True, exist_ok=True)
            (include / name).write_text(f'#error "{what} ({name}) are not supported by the CPU emulator"\n')
        flags = [flag for flag in GXX_FLAGS if flag != "-shared"]
        precompile = [_compiler(), *flags, "-x", "c++-header", str(staging / SHIM.name),
                      "-o", str(staging / f"{SHIM.name}.gch")]
        if subprocess.run(precompile, capture_output=True, timeout=COMPILE_TIMEOUT_S, env=_plain_messages(),
                          check=False).returncode != 0:
            (staging / f"{SHIM.name}.gch").unlink(missing_ok=True)      # g++ then reads the header itself
        (staging / ".complete").write_text("")
        os.rename(staging, folder)
    except OSError:          # another process made it first
        pass
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return folder


def _compile_error(unit: CompileUnit, log: str, renames: dict[str, str]) -> EmulationError:
    """g++'s first error, at the first place in the user's files the log names (the error itself, the #include
    that led to it, or the line that instantiated a shim template); the kernel when none is named."""
    user_files = {unit.path} | {m.group(2) for line in unit.text.splitlines() if (m := _LINE_DIRECTIVE.match(line))}
    lines = log.splitlines()
    first = next((m.group("message") for line in lines if (m := _GXX_ERROR.search(line))), None)
    if first is None:
        first = next((line.strip() for line in lines if line.strip()), "g++ failed")
    for path, name in renames.items():
        first = first.replace(path, name)
    location = kernel_location(unit)
    for line in lines:
        place = _GXX_PLACE.match(line)
        if place and place.group("file") in user_files:
            location = Location(file=place.group("file"), line=int(place.group("line")),
                                column=int(place.group("column") or 1))
            break
    return EmulationError(location, f"the CPU emulator cannot compile {unit.name_expression}: g++: {first}")


def _key(source: str) -> str:
    return content_key(_toolchain_key(), source)[:32]


def _toolchain_key() -> str:
    return content_key(SHIM_VERSION, SHIM.read_text(), _compiler_version(), " ".join(GXX_FLAGS),
                   repr(_STAND_INS), repr(_LIBCUXX_FORWARDS), repr(_UNSUPPORTED_HEADERS))


def _folder() -> Path:
    folder = cache_dir() / "emulate"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@functools.cache
def _compiler() -> str:
    compiler = shutil.which("g++")
    if compiler is None:
        raise EmulationError(Location(file="<emulator>", line=1), "g++ not found on PATH",
                             "g++ 12 or newer (the CPU emulator compiles kernels with it)")
    return compiler


def _plain_messages() -> dict[str, str]:
    """The environment with g++'s messages in plain English and ASCII quotes."""
    return {**os.environ, "LC_ALL": "C", "LANG": "C"}


@functools.cache
def _compiler_version() -> str:
    completed = subprocess.run([_compiler(), "--version"], capture_output=True, text=True, check=False)
    return completed.stdout.splitlines()[0] if completed.stdout else ""


# ---------------------------------------------------------------------------------------------------------------
# Text


def _code_only(text: str) -> str:
    """The text with comments and string and character literals blanked (newlines kept): offsets still match."""
    return _NOT_CODE.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text)


def _unit_location(unit: CompileUnit, offset: int) -> Location:
    """The user's file location of an offset into the unit text, through its #line directives."""
    line_start = unit.text.rfind("\n", 0, offset) + 1
    file, line = unit.path, 1
    for text_line in unit.text[:line_start].split("\n")[:-1]:
        if directive := _LINE_DIRECTIVE.match(text_line):
            file, line = directive.group(2), int(directive.group(1))
        else:
            line += 1
    return Location(file=file, line=line, column=offset - line_start + 1)
