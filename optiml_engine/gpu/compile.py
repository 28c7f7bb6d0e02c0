"""Compile a CompileUnit to a CUBIN and read what ptxas says about its resources.

Two backends produce the same CompileResult:

- `compile_nvrtc`: NVRTC in-process through cuda-python, the fast path every candidate takes.
- `compile_nvcc`: the toolkit's nvcc in a subprocess, an independent second opinion on registers and shared
  memory (and the compiler a user would build with).

Both ask ptxas for its verbose report (`-Xptxas -v`) and read diagnostics from the same EDG message format, so the
log parsing below is shared. The unit's `#line` directives make the compilers name the user's file and line
themselves; the parser only adds the column from the caret line.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

from cuda.bindings import nvrtc
from cuda.pathfinder import locate_nvidia_header_directory

from optiml_engine.gpu.tools import find_cuda_tool, tool_version
from optiml_engine.model import CompileDiagnostic, CompileResult, CompileUnit, Location, ResourceUsage

# Both backends compile with these; the architecture and the caller's flags come on top.
COMMON_OPTIONS = ("-std=c++17", "-Xptxas", "-v")
# What nvcc's device code has from host headers (math and limit macros, fixed-width integers, std:: math), for NVRTC.
PRELUDE = Path(__file__).with_name("nvrtc_prelude.h")
PRELUDE_STANDS_FOR = ("cmath", "math.h", "cfloat", "float.h", "climits", "limits.h", "cstdint", "stdint.h")

NVCC_TIMEOUT_SECONDS = 300

# nvcc instantiates a template kernel only when something references it; a host-side reference does that (with its
# unused-variable warning suppressed from there on only, so the user's own still show), and its file name lets
# diagnostics about the instantiation be moved to the kernel (see _SYNTHETIC_FILES).
_INSTANCE_FILE = "optiml-instance"
_UNUSED_VARIABLE_WARNING = "177"

# Files that exist only inside the compiler: NVRTC reports problems with a name expression in "__nv_name_map".
_SYNTHETIC_FILES = frozenset({"__nv_name_map", _INSTANCE_FILE})


# ---------------------------------------------------------------------------------------------------------------
# Backends


COMPILED_KEPT = 512
_compiled: OrderedDict[tuple[str, str, tuple[str, ...]], CompileResult] = OrderedDict()
_compiling: dict[tuple[str, str, tuple[str, ...]], Future] = {}    # compiles in progress, which a second asker joins
_compiled_lock = threading.Lock()
# NVRTC releases the GIL while it compiles: a policy's dozen candidates compile at once on as many cores, and the
# search compiles the next candidates while the GPU measures the current one.
_threads = ThreadPoolExecutor(max_workers=os.cpu_count() or 1, thread_name_prefix="optiml-nvrtc")

Item = TypeVar("Item")
Result = TypeVar("Result")


def on_compile_threads(work: Callable[[Item], Result], items: Iterable[Item]) -> list[Result]:
    """`work` on every item, on the compile threads, results in order: for work that is mostly NVRTC."""
    return list(_threads.map(work, items))


def compile_ahead(work: Callable[[], object]) -> None:
    """Start `work` (a compile whose result lands in a cache) on the compile threads without waiting for it."""
    _threads.submit(work)


def compile_nvrtc(unit: CompileUnit, arch: str = "sm_90", flags: Sequence[str] = ()) -> CompileResult:
    """Compile in-process with NVRTC, once per (unit, arch, flags) while the process keeps the result: a template
    compiles each instance to prune it by its resource report, and the evaluator compiles the same instance again to
    run it (a tenth of a second to a second each). A second caller asking while the first compiles waits for it."""
    key = (unit.model_dump_json(), arch, tuple(flags))
    with _compiled_lock:
        if key in _compiled:
            _compiled.move_to_end(key)
            return _compiled[key]
        running = _compiling.get(key)
        if running is None:
            running = _compiling[key] = Future()
            mine = True
        else:
            mine = False
    if not mine:
        return running.result()
    try:
        result = _compile_nvrtc(unit, arch, flags)
    except BaseException as error:
        with _compiled_lock:
            del _compiling[key]
        running.set_exception(error)
        raise
    with _compiled_lock:
        _compiled[key] = result
        while len(_compiled) > COMPILED_KEPT:
            _compiled.popitem(last=False)
        del _compiling[key]
    running.set_result(result)
    return result


def _compile_nvrtc(unit: CompileUnit, arch: str, flags: Sequence[str]) -> CompileResult:
    """The NVRTC program is released on every path."""
    started = time.perf_counter()
    options = [f"--gpu-architecture={arch}", *COMMON_OPTIONS, *_nvrtc_include_options(),
               f"--pre-include={PRELUDE.name}", *flags]
    name_expression = unit.name_expression.encode()
    log, lowered_name, cubin, failure = "", None, None, None
    program = None
    try:
        headers = {PRELUDE.name: _prelude_text(), **{name: b"" for name in PRELUDE_STANDS_FOR}}
        program = _nvrtc_call(nvrtc.nvrtcCreateProgram, unit.text.encode(), unit.path.encode(), len(headers),
                              list(headers.values()), [name.encode() for name in headers])
        _nvrtc_call(nvrtc.nvrtcAddNameExpression, program, name_expression)
        (status,) = nvrtc.nvrtcCompileProgram(program, len(options), [o.encode() for o in options])
        log = _nvrtc_program_log(program)
        if status != nvrtc.nvrtcResult.NVRTC_SUCCESS:
            failure = f"NVRTC compilation failed ({_nvrtc_error_string(status)})"
        else:
            lowered_name = _nvrtc_call(nvrtc.nvrtcGetLoweredName, program, name_expression).decode()
            cubin = _nvrtc_cubin(program)
    except _NvrtcError as error:
        failure = str(error)
    finally:
        if program is not None:
            nvrtc.nvrtcDestroyProgram(program)
    resources = parse_ptxas_report(log).get(lowered_name) if lowered_name else None
    return _result(unit, "nvrtc", arch, started=started, version=_nvrtc_version(), log=log, failure=failure,
                   lowered_name=lowered_name, cubin=cubin, resources=resources)


def compile_nvcc(unit: CompileUnit, arch: str = "sm_90", flags: Sequence[str] = ()) -> CompileResult:
    """Compile with nvcc in a temporary directory; the kernel's entry is found among those ptxas reports."""
    started = time.perf_counter()
    nvcc = find_cuda_tool("nvcc")
    if nvcc is None:
        return _result(unit, "nvcc", arch, started=started, version="", log="",
                       failure="nvcc not found (looked on PATH and in the CUDA toolkit locations cuda.pathfinder "
                               "knows: pip wheels, conda, CUDA_PATH/CUDA_HOME, system installs)")
    log, cubin, failure = "", None, None
    with tempfile.TemporaryDirectory(prefix="optiml-nvcc-") as workdir:
        source = Path(workdir) / "unit.cu"
        output = Path(workdir) / "unit.cubin"
        source.write_text(_nvcc_source(unit))
        command = [nvcc, "-cubin", f"-arch={arch}", *COMMON_OPTIONS, *flags, "-o", str(output), str(source)]
        try:
            completed = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                       timeout=NVCC_TIMEOUT_SECONDS)
            log = completed.stdout
            if completed.returncode == 0:
                cubin = output.read_bytes()
            else:
                failure = f"nvcc exited with status {completed.returncode}"
        except subprocess.TimeoutExpired:
            failure = f"nvcc did not finish within {NVCC_TIMEOUT_SECONDS} s"
        except OSError as error:
            failure = f"nvcc failed ({error})"
    report = parse_ptxas_report(log)
    lowered_name = _find_entry(unit, list(report)) if failure is None else None
    return _result(unit, "nvcc", arch, started=started, version=_nvcc_version(nvcc), log=log, failure=failure,
                   lowered_name=lowered_name, cubin=cubin, resources=report.get(lowered_name))


def _result(unit: CompileUnit, backend: str, arch: str, *, started: float, version: str, log: str,
            failure: str | None, lowered_name: str | None = None, cubin: bytes | None = None,
            resources: ResourceUsage | None = None) -> CompileResult:
    """The result both backends return. `failure` says why the compiler failed (None: it succeeded); a failed
    compile always carries at least one located error, and a successful one is ok only with the kernel's
    resource report."""
    kernel_at = kernel_location(unit)
    diagnostics = parse_diagnostics(log, unit)
    if failure is None and resources is None:
        failure = (f"no entry function for {unit.name_expression} in the ptxas report" if "ptxas" in log else
                   "ptxas printed no resource report: the CUDA compute cache served this compile "
                   "(CUDA_CACHE_DISABLE=1 must be set before CUDA initializes; importing optiml_engine first does it)")
        diagnostics.append(CompileDiagnostic(location=kernel_at, severity="error", message=failure))
    elif failure is not None and not any(d.severity == "error" for d in diagnostics):
        diagnostics.append(CompileDiagnostic(location=kernel_at, severity="error", message=failure))
    ok = failure is None
    return CompileResult(
        ok=ok, kernel=unit.kernel, backend=backend, arch=arch,
        lowered_name=lowered_name if ok else None, cubin=cubin if ok else None, resources=resources if ok else None,
        diagnostics=diagnostics, log=log, compiler_version=version, seconds=time.perf_counter() - started,
    )


# ---------------------------------------------------------------------------------------------------------------
# NVRTC plumbing


class _NvrtcError(Exception):
    pass


def _nvrtc_error_string(status: nvrtc.nvrtcResult) -> str:
    return nvrtc.nvrtcGetErrorString(status)[1].decode()


def _nvrtc_call(function, *args):
    """Call an NVRTC binding (they return the status, then the value if any) and return the value, raising
    _NvrtcError on failure."""
    status, *value = function(*args)
    if status != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        raise _NvrtcError(f"{function.__name__} failed ({_nvrtc_error_string(status)})")
    return value[0] if value else None


def _nvrtc_program_log(program) -> str:
    size = _nvrtc_call(nvrtc.nvrtcGetProgramLogSize, program)
    buffer = bytearray(size)
    _nvrtc_call(nvrtc.nvrtcGetProgramLog, program, buffer)
    # The log is NUL-terminated, and NVRTC also puts a NUL between the front end's part and ptxas' part.
    return buffer.replace(b"\0", b"").decode(errors="replace")


def _nvrtc_cubin(program) -> bytes:
    size = _nvrtc_call(nvrtc.nvrtcGetCUBINSize, program)
    buffer = bytearray(size)
    _nvrtc_call(nvrtc.nvrtcGetCUBIN, program, buffer)
    return bytes(buffer)


@functools.cache
def _nvrtc_version() -> str:
    status, major, minor = nvrtc.nvrtcVersion()
    return f"nvrtc {major}.{minor}" if status == nvrtc.nvrtcResult.NVRTC_SUCCESS else "nvrtc (unknown version)"


@functools.cache
def _prelude_text() -> bytes:
    return PRELUDE.read_bytes()


@functools.cache
def _nvrtc_include_options() -> tuple[str, ...]:
    """-I options for the CUDA headers kernels include.

    pip's NVRTC (nvidia-cuda-nvrtc 13.5) has no built-in headers: even <cuda_fp16.h>, <cuda_bf16.h> and
    <cooperative_groups.h> fail with "no directories in search list", and its wheel ships only nvrtc.h. The
    headers come with the CUDA runtime (cuda_fp16.h, cuda_bf16.h, cooperative_groups.h, mma.h: the "cudart"
    directory) and CCCL (cuda/std/..., cuda/barrier: the "cccl" directory, include/cccl in toolkit 13), found by
    cuda.pathfinder in an nvidia-cuda-runtime/-cccl wheel, conda, CUDA_PATH/CUDA_HOME or a system toolkit (here
    /usr/local/cuda-13.0/include, next to nvcc). Toolkit 13.0's headers compile under NVRTC 13.5. Host C++
    headers (<cstdint>, <cstdio>) do not exist for NVRTC at all; cuda/std/... are their device counterparts.
    """
    directories = (locate_nvidia_header_directory(library) for library in ("cudart", "cccl"))
    return tuple(f"-I{directory.abs_path}" for directory in directories if directory is not None)


# ---------------------------------------------------------------------------------------------------------------
# nvcc plumbing


def _nvcc_version(nvcc: str) -> str:
    """"nvcc 13.0.88" from the `V13.0.88` in `nvcc --version`."""
    version = tool_version(nvcc, r"\bV(\d+(?:\.\d+)+)")
    return f"nvcc {version}" if version else "nvcc (unknown version)"


def _nvcc_source(unit: CompileUnit) -> str:
    """The unit as nvcc compiles it: lines before the unit's first #line directive are named after the unit's
    path (as NVRTC names them after the program), and a host-side reference instantiates the kernel."""
    path = unit.path.replace("\\", "\\\\").replace('"', '\\"')  # the #line directives hold C strings
    return (f'#line 1 "{path}"\n{unit.text}\n'
            f'#line 1 "{_INSTANCE_FILE}"\n'
            f"#pragma nv_diag_suppress {_UNUSED_VARIABLE_WARNING}\n"
            f"static void* optiml_instance = (void*)&{unit.name_expression};\n")


def _find_entry(unit: CompileUnit, entries: list[str]) -> str | None:
    """The mangled entry name of the unit's kernel among those ptxas compiled.

    The unit may hold other kernels its closure needed, and other instantiations of a template kernel, so match the
    demangled name against the name expression first (exact up to spacing), then by the kernel's bare name, and
    take a lone entry last (that also covers a missing demangler)."""
    names = dict(zip(entries, _demangle(entries)))
    wanted = _squash(unit.name_expression).removeprefix("::")
    exact = [entry for entry, name in names.items() if _squash(name) == wanted]
    by_name = [entry for entry, name in names.items() if _bare_name(name) == unit.kernel]
    for matches in (exact, by_name, entries):
        if len(matches) == 1:
            return matches[0]
    return None


def _demangle(names: list[str]) -> list[str]:
    """Itanium-demangled function names without return type and parameters ("ns::k<float, 256>"); a name stays
    mangled when no demangler is found. cu++filt ships with the toolkit; binutils' c++filt reads the same ABI."""
    demangler = shutil.which("cu++filt") or shutil.which("c++filt")
    if not names or demangler is None:
        return names
    try:
        completed = subprocess.run([demangler], input="\n".join(names), capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return names
    demangled = completed.stdout.splitlines()
    if completed.returncode != 0 or len(demangled) != len(names):
        return names
    return [_function_name(signature) for signature in demangled]


def _function_name(signature: str) -> str:
    """'void ns::k<float, 256>(float*)' -> 'ns::k<float, 256>' (template kernels demangle with their return type)."""
    signature = signature.removeprefix("void ")
    depth = 0
    for index, char in enumerate(signature):
        if char == "<":
            depth += 1
        elif char == ">":
            depth -= 1
        elif char == "(" and depth == 0:
            return signature[:index]
    return signature


def _bare_name(name: str) -> str:
    """'ns::k<float, 256>' -> 'k'."""
    return name.split("<", 1)[0].rsplit("::", 1)[-1]


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


# ---------------------------------------------------------------------------------------------------------------
# ptxas report

_ENTRY_LINE = re.compile(r"ptxas info\s*: Compiling entry function '([^']+)'")
_PROPERTIES_LINE = re.compile(r"ptxas info\s*: Function properties for (\S+)")
# nvcc indents the frame line; NVRTC prefixes it with "ptxas         .".
_FRAME_LINE = re.compile(
    r"^(?:ptxas\s+\.)?\s*(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
_USAGE_LINE = re.compile(r"ptxas info\s*: Used (\d+) registers(.*)")
_USAGE_ITEMS = {
    "barriers": re.compile(r"used (\d+) barriers"),
    "shared_bytes": re.compile(r"(\d+) bytes smem"),
    "constant_bytes": re.compile(r"(\d+) bytes cmem\[0\]"),
}


def parse_ptxas_report(log: str) -> dict[str, ResourceUsage]:
    """Resource usage of every entry function in a `ptxas -v` report, keyed by mangled name.

    The report announces each entry ("Compiling entry function 'E'"), then gives its frame line under "Function
    properties for E" (non-inlined device functions get such a block too, which is why frames are keyed by the
    name they follow) and its "Used N registers, ..." line. Items a ptxas version leaves out of the usage line
    (cmem[0] is not printed by ptxas 13) count as 0.
    """
    frames: dict[str, tuple[int, int, int]] = {}
    usages: dict[str, dict[str, int]] = {}
    entry = properties_of = None
    for line in log.splitlines():
        if match := _ENTRY_LINE.search(line):
            entry = match.group(1)
        elif match := _PROPERTIES_LINE.search(line):
            properties_of = match.group(1)
        elif (match := _FRAME_LINE.search(line)) and properties_of is not None:
            frames[properties_of] = (int(match.group(1)), int(match.group(2)), int(match.group(3)))
        elif (match := _USAGE_LINE.search(line)) and entry is not None:
            usage = {"registers": int(match.group(1))}
            for field, pattern in _USAGE_ITEMS.items():
                if item := pattern.search(match.group(2)):
                    usage[field] = int(item.group(1))
            usages[entry] = usage
    report = {}
    for name, usage in usages.items():
        stack, spill_stores, spill_loads = frames.get(name, (0, 0, 0))
        report[name] = ResourceUsage(**{"shared_bytes": 0, **usage}, stack_frame_bytes=stack,
                                     spill_store_bytes=spill_stores, spill_load_bytes=spill_loads)
    return report


# ---------------------------------------------------------------------------------------------------------------
# Diagnostics

# EDG's format, shared by NVRTC and nvcc: `file(line): error: message`, `file(line): warning #177-D: message`,
# `file(line): catastrophic error: ...`; then the source line indented by two spaces and a caret line under it.
_LOCATED_MESSAGE = re.compile(
    r"^(?P<file>.+?)\((?P<line>\d+)\): (?P<severity>(?:[a-z]+ )?(?:error|warning|remark))"
    r"(?: #\d+(?:-D)?)?: (?P<message>.*)$")
_SOURCE_INDENT = 2
_CARET_LINE = re.compile(r"^(?P<indent>\s*)\^\s*$")
# Messages without a source location: `ptxas error   : ...`, ` ptxas warning : ...`, `nvcc fatal   : ...`,
# `nvrtc: error: ...`.
_TOOL_MESSAGE = re.compile(
    r"^\s*(?P<tool>ptxas|nvcc|nvlink|nvrtc|fatbinary):?\s+(?P<severity>error|fatal|warning)\s*: (?P<message>.*)$")


def parse_diagnostics(log: str, unit: CompileUnit) -> list[CompileDiagnostic]:
    """Errors and warnings in an NVRTC or nvcc log of `unit` (remarks are dropped).

    Located messages keep the file and line the compiler printed (the unit's #line directives make them the
    user's) and take their column from the caret line; indented lines after the caret ("detected during
    instantiation of ...") join the message. Messages from tools without a location (ptxas, the driver), and
    those about compiler-made files (the name expression), are placed at the kernel (`kernel_location`).
    """
    kernel_at = kernel_location(unit)
    lines = log.splitlines()
    diagnostics = []
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if located := _LOCATED_MESSAGE.match(line):
            severity = _severity(located.group("severity"))
            message = located.group("message")
            column = 1
            if index + 1 < len(lines) and (caret := _CARET_LINE.match(lines[index + 1])):
                column = max(1, len(caret.group("indent")) - _SOURCE_INDENT + 1)
                index += 2
            context = []
            while index < len(lines) and lines[index][:1].isspace() and lines[index].strip():
                context.append(lines[index].strip())
                index += 1
            if context:
                message = f"{message} ({' '.join(context)})"
            if located.group("file") in _SYNTHETIC_FILES:
                location = kernel_at
                message = f"{message} (instantiating {unit.name_expression})"
            else:
                location = Location(file=located.group("file"), line=int(located.group("line")), column=column)
        elif tool := _TOOL_MESSAGE.match(line):
            severity = _severity(tool.group("severity"))
            location = kernel_at
            message = f"{tool.group('tool')}: {tool.group('message').strip()}"
        else:
            continue
        if severity is not None:
            diagnostics.append(CompileDiagnostic(location=location, severity=severity, message=message))
    return diagnostics


def _severity(word: str) -> str | None:
    """"catastrophic error", "internal error", "fatal" -> "error"; "warning" -> "warning"; remarks -> None."""
    if word.endswith("warning"):
        return "warning"
    if word.endswith(("error", "fatal")):
        return "error"
    return None


_LINE_DIRECTIVE = re.compile(r'^\s*#\s*(?:line\s+)?(\d+)\s+"([^"]*)"')


def kernel_location(unit: CompileUnit) -> Location:
    """Where the unit's kernel is named in the user's file, through the unit's #line directives; the start of the
    unit's file when the definition is not found. Diagnostics without a source location are placed here."""
    definition = re.search(rf"__global__[^;{{]*?\b({re.escape(unit.kernel)})\s*\(", unit.text)
    if definition is None:
        return Location(file=unit.path, line=1)
    line_start = unit.text.rfind("\n", 0, definition.start(1)) + 1
    target = unit.text.count("\n", 0, line_start)
    file, line = unit.path, 1
    for text_line in unit.text.split("\n")[:target]:
        if directive := _LINE_DIRECTIVE.match(text_line):
            file, line = directive.group(2), int(directive.group(1))
        else:
            line += 1
    return Location(file=file, line=line, column=definition.start(1) - line_start + 1)
