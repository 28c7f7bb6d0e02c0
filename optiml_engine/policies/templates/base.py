"""Templates: a recognized pattern re-expressed with parameters, in two stages (issue 6, part 3).

A template recognizes a kernel's pattern through the rule families' readers (policies/rules/), lists a grid of
parameters (`space`: block size, items per thread, tile sizes ...) and renders any point of it as a candidate with
its own launch rule, in contract terms. The grid is pruned twice before anything runs: by what arithmetic alone
excludes (threads per block, static shared memory, threads per SM), then, after an NVRTC compile, by what the
compile report excludes (registers, spills). What is left is measured (templates/tune.py).

Every instance is meant to be correct at every contract size; verification on the GPU still judges each one.
"""

from __future__ import annotations

import itertools
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from optiml_engine.gpu.compile import compile_nvrtc
from optiml_engine.ir.schedule import SM_COUNT
from optiml_engine.model import Candidate, CompileResult, DeviceInfo, ResourceUsage
from optiml_engine.policies.kernel_view import KernelView
from optiml_engine.policies.rules.knobs import launch_bounds_replacement
from optiml_engine.source.ctypes import dtype_of, itemsize

Params = dict[str, int]
Compiler = Callable[[Candidate], CompileResult]

WARP = 32
# Per-block limits of every architecture the engine compiles for (sm_70 on; CUDA C++ Programming Guide, "Technical
# Specifications per Compute Capability"). Templates declare only static shared memory, whose limit is 48 KiB on
# all of them; more needs dynamic shared memory and an opt-in, which no template uses.
MAX_THREADS_PER_BLOCK = 1024
MAX_STATIC_SHARED_BYTES = 48 * 1024
REGISTERS_PER_BLOCK = 65536
MAX_REGISTERS_PER_THREAD = 255
# Resident threads per SM: 2048 but where listed.
_THREADS_PER_SM = {"7.5": 1024, "8.6": 1536, "8.7": 1536, "8.9": 1536}
DEFAULT_ARCH = "sm_90"


def grid(**values: tuple[int, ...]) -> list[Params]:
    """Every combination of the values, the first parameter varying slowest."""
    return [dict(zip(values, combination)) for combination in itertools.product(*values.values())]


def element_bytes(ctype: str) -> int:
    """Bytes of a C scalar type; 8 (the largest scalar) when it is not one the contract knows."""
    dtype = dtype_of(ctype)
    return itemsize(dtype) if dtype is not None else 8


def threads_per_sm(device: DeviceInfo | None) -> int:
    return _THREADS_PER_SM.get(device.compute_capability, 2048) if device is not None else 2048


def allocated_registers(registers: int, threads: int) -> int:
    """Registers a block takes from the SM's file: per thread rounded up to 8, per block whole warps."""
    return -(-registers // 8) * 8 * -(-threads // WARP) * WARP


def default_compiler(device: DeviceInfo | None) -> Compiler:
    arch = device.arch() if device is not None else DEFAULT_ARCH
    return lambda candidate: compile_nvrtc(candidate.unit, arch=arch, flags=candidate.flags)


@dataclass(frozen=True)
class TemplateMatch:
    """Where a template applies: the kernel (its view and candidate) and what the rule family read off it."""

    template: str
    view: KernelView
    node: Candidate
    plan: Any                 # the family's reading of the kernel (a GemmPlan, a RowKernel ...)
    what: str                 # the pattern, in a few words, for reports


@dataclass(frozen=True)
class Instance:
    """One point of a template's space, rendered and compiled; `pruned` says why it must not run."""

    params: Params
    candidate: Candidate | None
    compiled: CompileResult | None
    pruned: str | None


class Template(ABC):
    name: str
    symptom: str

    @abstractmethod
    def recognize(self, view: KernelView, node: Candidate) -> TemplateMatch | None:
        """The match when the kernel has this template's pattern (and the contract says what the launch needs)."""

    @abstractmethod
    def space(self, match: TemplateMatch) -> list[Params]:
        """The parameter grid, limits not yet applied; every parameter takes a few ordered values."""

    @abstractmethod
    def threads(self, params: Params) -> int:
        """Threads per block."""

    @abstractmethod
    def shared_bytes(self, match: TemplateMatch, params: Params) -> int:
        """Static shared memory per block."""

    @abstractmethod
    def rewrite(self, match: TemplateMatch, params: Params) -> Candidate:
        """The instance's kernel and launch rule (without its launch bounds, which `render` adds)."""

    def render(self, match: TemplateMatch, params: Params) -> Candidate:
        """The instance, with `__launch_bounds__` of its block size: ptxas then keeps registers within what the
        block may have (and spills otherwise, which the compile report shows)."""
        candidate = self.rewrite(match, params)
        view = KernelView.of(candidate)
        text = view.replaced([launch_bounds_replacement(view, self.threads(params))])
        return candidate.model_copy(update={"unit": candidate.unit.model_copy(update={"text": text})})

    def exceeded(self, match: TemplateMatch, params: Params, device: DeviceInfo | None = None,
                 resources: ResourceUsage | None = None) -> str | None:
        """The first limit the instance exceeds, in words; None when it fits. Without `resources`, the limits that
        arithmetic decides; with them (the compile report), registers, spills and the shared memory used."""
        threads = self.threads(params)
        if threads > MAX_THREADS_PER_BLOCK:
            return f"{threads} threads per block (at most {MAX_THREADS_PER_BLOCK})"
        shared = self.shared_bytes(match, params)
        if shared > MAX_STATIC_SHARED_BYTES:
            return f"{shared} bytes of static shared memory (at most {MAX_STATIC_SHARED_BYTES})"
        resident = params.get("blocks_per_sm", 1) * threads
        if resident > threads_per_sm(device):
            return f"{resident} threads per SM (at most {threads_per_sm(device)})"
        if resources is None:
            return None
        if resources.spill_store_bytes or resources.spill_load_bytes:
            return (f"spills {resources.spill_store_bytes} bytes stored, {resources.spill_load_bytes} loaded at "
                    f"{resources.registers} registers")
        if resources.registers > MAX_REGISTERS_PER_THREAD:
            return f"{resources.registers} registers per thread (at most {MAX_REGISTERS_PER_THREAD})"
        if allocated_registers(resources.registers, threads) > REGISTERS_PER_BLOCK:
            return f"{resources.registers} registers x {threads} threads (at most {REGISTERS_PER_BLOCK} per block)"
        if resources.shared_bytes > MAX_STATIC_SHARED_BYTES:
            return f"{resources.shared_bytes} bytes of shared memory compiled (at most {MAX_STATIC_SHARED_BYTES})"
        return None

    def feasible(self, match: TemplateMatch, params: Params, device: DeviceInfo | None = None,
                 resources: ResourceUsage | None = None) -> bool:
        return self.exceeded(match, params, device, resources) is None

    def instance(self, match: TemplateMatch, params: Params, device: DeviceInfo | None = None,
                 compile: Compiler | None = None) -> Instance:
        """Pruned by arithmetic, or rendered, compiled and pruned by the compile report."""
        reason = self.exceeded(match, params, device)
        if reason is not None:
            return Instance(params, None, None, reason)
        candidate = self.render(match, params)
        compiled = (compile or default_compiler(device))(candidate)
        if not compiled.ok or compiled.resources is None:
            first = next((str(d) for d in compiled.diagnostics if d.severity == "error"), compiled.log.strip())
            return Instance(params, candidate, compiled, f"compile error: {first[:200]}")
        return Instance(params, candidate, compiled, self.exceeded(match, params, device, compiled.resources))

    def feasible_space(self, match: TemplateMatch, device: DeviceInfo | None = None) -> list[Params]:
        """The space less what arithmetic excludes."""
        return [params for params in self.space(match) if self.feasible(match, params, device)]

    def defaults(self, match: TemplateMatch, device: DeviceInfo | None = None, count: int = 6) -> list[Params]:
        """Up to `count` points of the feasible space, evenly spread over its order (first and last included)."""
        space = self.feasible_space(match, device)
        if len(space) <= count:
            return space
        picks = sorted({round(i * (len(space) - 1) / (count - 1)) for i in range(count)})
        return [space[i] for i in picks]

    @staticmethod
    def describe_params(params: Params) -> str:
        return " ".join(f"{key}={value}" for key, value in params.items())
