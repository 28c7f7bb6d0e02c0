"""The evaluator: one candidate in, one Measurement out. The only caller of optiml_engine.gpu.

compile (NVRTC, for the device's own architecture) -> verify against the reference and time (a worker process)
-> speed-of-light report -> verdict. Results are cached on disk, keyed by everything that decides them.
"""

from __future__ import annotations

import functools
import time

import diskcache

from optiml_engine.cache import content_key, open_cache
from optiml_engine.diagnosis import Diagnosis, diagnose, timing_only
from optiml_engine.gpu.compile import compile_ahead, compile_nvrtc
from optiml_engine.gpu.device import CEILINGS_PREFIX, device_ceilings
from optiml_engine.gpu.pool import WorkerPool
from optiml_engine.gpu.profile import KernelProfile, ProfileRun, ProfileTarget, profile_kernels
from optiml_engine.gpu.sanitize import SanitizerReport, Tool, sanitize
from optiml_engine.gpu.worker import CompiledKernel, EvaluateJob, EvaluateOutcome
from optiml_engine.generate.algorithm import algorithm
from optiml_engine.ir.lift import lift
from optiml_engine.ir.program import Atomic, LoopProgram, walk
from optiml_engine.model import (
    Candidate,
    CompileResult,
    DeviceCeilings,
    DeviceInfo,
    Frozen,
    Measurement,
    ReferenceOracle,
    TimingPolicy,
    VerifyPolicy,
)
from optiml_engine.sol import sol_report
from optiml_engine.source.contract import resolve


Reference = Candidate | ReferenceOracle   # what a candidate is verified against: a kernel, or NumPy expressions


class Profile(Frozen):
    """A candidate's Nsight Compute metrics (None where the counters could not be read) and its diagnosis."""

    metrics: KernelProfile | None
    diagnosis: Diagnosis
    note: str = ""
    seconds: float = 0.0              # this candidate's share of the ncu process


class CandidateNotCompiled(Exception):
    def __init__(self, result: CompileResult):
        super().__init__(result.log)
        self.result = result


def candidate_key(candidate: Candidate) -> str:
    return content_key(candidate.unit.model_dump_json(), candidate.contract.model_dump_json(exclude={"location"}),
                       ",".join(candidate.params), " ".join(candidate.flags))


def reference_key(reference: Reference) -> str:
    return content_key("oracle", reference.text) if isinstance(reference, ReferenceOracle) else candidate_key(reference)


# Changes whenever the verdicts the worker gives change meaning: measurements cached under another are not reused.
VERIFICATION_PROTOCOL = "2: a disagreement with a float-atomic reference judged against its program in double"


def measurement_key(candidate: Candidate, reference: Reference, incumbent: Candidate | None, device: DeviceInfo,
                    verify: VerifyPolicy, timing: TimingPolicy) -> str:
    return content_key("measurement", VERIFICATION_PROTOCOL, candidate_key(candidate), reference_key(reference),
                       candidate_key(incumbent) if incumbent else "", device.model_dump_json(exclude={"index"}),
                       verify.model_dump_json(), timing.model_dump_json())


def float_atomic_program(reference: Candidate) -> LoopProgram | None:
    """The reference's program where it adds into float arrays (half, float, double) with atomics: its result
    depends on an order the GPU chooses, and a candidate that sums in another order may be the more accurate one
    (gpu/worker.py, EvaluateJob.exact). None for any other kernel, and where an array is bfloat16 (NumPy has no
    such type to run the program on)."""
    program = lift(algorithm(reference))
    if not isinstance(program, LoopProgram):
        return None
    types = {spec.param: spec.dtype for spec in reference.contract.arrays}
    targets = {stmt.array for stmt in walk(program.body) if isinstance(stmt, Atomic)}
    floats = ("float16", "float32", "float64")
    if not targets or any(types.get(name) not in floats for name in targets) or "bfloat16" in types.values():
        return None
    return program


def profile_key(candidate: Candidate, device: DeviceInfo) -> str:
    return content_key("profile", candidate_key(candidate), device.model_dump_json(exclude={"index"}))


def measured_devices(cache: diskcache.Cache) -> list[DeviceInfo]:
    """The devices whose ceilings the cache holds: those this machine has measured on (a scan of every key)."""
    return [DeviceCeilings.model_validate_json(cache[key]).device for key in cache.iterkeys()
            if isinstance(key, str) and key.startswith(CEILINGS_PREFIX)]


def cached_profile(cache: diskcache.Cache, candidate: Candidate, reference: Reference | None,
                   device: DeviceInfo) -> tuple[Measurement, Profile] | None:
    """The measurement and profile `optiml profile` stored for `candidate` on `device` with the default policies, read
    from the cache alone: no GPU, no worker process (the editor's hover)."""
    measurement = cache.get(measurement_key(candidate, reference or candidate, None, device, VerifyPolicy(),
                                            TimingPolicy()))
    profile = cache.get(profile_key(candidate, device))
    if measurement is None or profile is None:
        return None
    return Measurement.model_validate_json(measurement), Profile.model_validate_json(profile)


class Evaluator:
    def __init__(self, pool: WorkerPool, verify: VerifyPolicy | None = None, timing: TimingPolicy | None = None,
                 use_cache: bool = True):
        self.pool = pool
        self.device = pool.devices[0]
        self.arch = self.device.arch()
        self.verify = verify or VerifyPolicy()
        self.timing = timing or TimingPolicy()
        self.ceilings = device_ceilings(pool)
        self.cache = open_cache() if use_cache else None
        self.profiler_unavailable: str | None = None     # why ncu gave nothing, once it has refused
        self.exact_programs: dict[str, LoopProgram | None] = {}   # by reference: float_atomic_program

    def compile(self, candidate: Candidate) -> tuple[CompileResult, CompiledKernel | None]:
        """The compile report (without the cubin, which measurements do not keep) and the loadable kernel; NVRTC
        runs once per unit in the process (compile_nvrtc keeps its results)."""
        result = compile_nvrtc(candidate.unit, arch=self.arch, flags=candidate.flags)
        kernel = None
        if result.ok and result.cubin and result.lowered_name:
            kernel = CompiledKernel(key=candidate_key(candidate), cubin=result.cubin, lowered_name=result.lowered_name,
                                    params=candidate.params, contract=candidate.contract)
        return result.model_copy(update={"cubin": None}), kernel

    def compile_ahead(self, candidates: list[Candidate]) -> None:
        """Compile on the compile threads now, without waiting: `evaluate` later finds the results ready."""
        for candidate in candidates:
            compile_ahead(functools.partial(self.compile, candidate))

    def kernel(self, candidate: Candidate) -> CompiledKernel:
        result, kernel = self.compile(candidate)
        if kernel is None:
            raise CandidateNotCompiled(result)
        return kernel

    def exact_program(self, reference: Candidate) -> LoopProgram | None:
        key = candidate_key(reference)
        if key not in self.exact_programs:
            self.exact_programs[key] = float_atomic_program(reference)
        return self.exact_programs[key]

    def job(self, candidate: Candidate, reference: Reference, incumbent: Candidate | None,
            verify: VerifyPolicy | None = None) -> EvaluateJob:
        contract = candidate.contract
        return EvaluateJob(
            candidate=self.kernel(candidate),
            reference=reference if isinstance(reference, ReferenceOracle) else self.kernel(reference),
            incumbent=self.kernel(incumbent) if incumbent else None,
            bindings=[contract.sizes, *contract.checks], verify=verify or self.verify, timing=self.timing,
            exact=None if isinstance(reference, ReferenceOracle) else self.exact_program(reference),
        )

    def evaluate(self, candidate: Candidate, reference: Reference | None = None,
                 incumbent: Candidate | None = None, fresh_seed: int | None = None) -> Measurement:
        """Verify `candidate` against `reference` (itself when None: the protocol's own checks still apply) and
        time it, interleaved with `incumbent` when given. `fresh_seed` draws inputs from another seed and skips the
        cache: the final check of a search's winner on inputs no search evaluation saw."""
        began = time.perf_counter()
        reference = reference or candidate
        verify = self.verify if fresh_seed is None else self.verify.model_copy(update={"seed": fresh_seed})
        key = measurement_key(candidate, reference, incumbent, self.device, verify, self.timing)
        cached = self.cache is not None and fresh_seed is None
        if cached and (stored := self.cache.get(key)) is not None:
            return Measurement.model_validate_json(stored)
        compiled, _ = self.compile(candidate)
        base = dict(kernel=candidate.unit.kernel, candidate_key=candidate_key(candidate),
                    description=candidate.description, compile=compiled, device=self.device,
                    toolkit=compiled.compiler_version)
        try:
            job = self.job(candidate, reference, incumbent, verify)
        except CandidateNotCompiled as failed:
            first = next((str(d) for d in failed.result.diagnostics if d.severity == "error"), failed.result.log)
            return Measurement(**base, verdict="compile_error", reason=first.strip(),
                               seconds=time.perf_counter() - began)
        outcome: EvaluateOutcome = self.pool.submit(job, timeout_s=self.verify.timeout_s).result()
        verdict, reason, sol = outcome.verdict, outcome.reason, None
        if outcome.timing is not None:
            sol = sol_report(resolve(candidate.contract, candidate.contract.sizes), self.ceilings,
                             outcome.timing.median_ms)
            if sol.suspect and verdict == "ok":
                verdict, reason = "suspect_fast", (f"{outcome.timing.median_ms:.4f} ms is under 0.9x the "
                                                   f"speed-of-light floor {sol.floor_ms:.4f} ms")
        measurement = Measurement(**base, verdict=verdict, reason=reason, checks=outcome.checks,
                                  timing=outcome.timing, incumbent_timing=outcome.incumbent_timing,
                                  speedup=outcome.speedup, sol=sol, seconds=time.perf_counter() - began)
        if cached:
            self.cache.set(key, measurement.model_dump_json())
        return measurement

    def sanitize(self, candidate: Candidate, reference: Reference | None = None,
                 tools: tuple[Tool, ...] = ("memcheck", "racecheck")) -> list[SanitizerReport]:
        job = self.job(candidate, reference or candidate, None)
        return [sanitize(job, tool, self.device.index) for tool in tools]

    def profile(self, measured: list[tuple[Candidate, Measurement]]) -> list[Profile]:
        """Nsight Compute profiles of verified candidates, all in one ncu process (its start-up cost is paid
        once), each with its diagnosis. Cached like measurements; without counters, a timing-only diagnosis."""
        keys = [profile_key(c, self.device) for c, _ in measured]
        results: dict[int, Profile] = {}
        for index, key in enumerate(keys):
            if self.cache is not None and (stored := self.cache.get(key)) is not None:
                results[index] = Profile.model_validate_json(stored)
        todo = [i for i in range(len(measured)) if i not in results]
        if todo:
            if self.profiler_unavailable is not None:
                run = ProfileRun(profiles=[], counters_available=False, note=self.profiler_unavailable)
            else:
                targets = [ProfileTarget(kernel=self.kernel(measured[i][0]), binding=measured[i][0].contract.sizes)
                           for i in todo]
                # A GPU of the pool is held for the launches only: the others, and this one during ncu's start-up,
                # go on measuring.
                run = profile_kernels(targets, lambda work: self.pool.exclusively(work).result())
                if not run.counters_available and not run.profiles:
                    # Said once: later profiles of this evaluator go straight to the timing-only diagnosis.
                    self.profiler_unavailable = run.note
            share = run.seconds / len(todo)
            for position, index in enumerate(todo):
                candidate, measurement = measured[index]
                if run.counters_available and position < len(run.profiles):
                    kernel_profile = run.profiles[position]
                    diagnosis = diagnose(kernel_profile.metrics, measurement.sol.bytes if measurement.sol else None,
                                         self.device.sm_count)
                    results[index] = Profile(metrics=kernel_profile, diagnosis=diagnosis, note=run.note,
                                             seconds=share)
                else:
                    note = run.note or "no profile"
                    diagnosis = timing_only(measurement.sol, note) if measurement.sol else Diagnosis(
                        bound="unknown", headline=note, explanation=note, findings=[], top_stalls=[])
                    results[index] = Profile(metrics=None, diagnosis=diagnosis, note=note, seconds=share)
                if self.cache is not None and results[index].metrics is not None:
                    self.cache.set(keys[index], results[index].model_dump_json())
        return [results[i] for i in range(len(measured))]
