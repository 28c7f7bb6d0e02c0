"""The GPU worker: a subprocess that owns one CUDA context and verifies and times compiled kernels in it.

A candidate can crash (illegal address), hang or corrupt the context; all of that happens here, never in the
caller. The pool (pool.py) talks to a worker over a multiprocessing pipe, kills it on a timeout and replaces it
when it reports a lost context or dies.

The verification protocol (DESIGN.md) is implemented in `verify_candidate`, the timing protocol in `time_kernels`:
read those two functions to know what "verified" and "timed" mean in this project.
"""

from __future__ import annotations

import hashlib
import sys
import time
import traceback
from collections import OrderedDict
from typing import Any

from pydantic import Field

from optiml_engine.gpu import timing
from optiml_engine.gpu.compare import Comparison, compare
from optiml_engine.gpu.data import make_inputs, poisoned, still_poisoned, storage_dtype
from optiml_engine.gpu.gate import StreamGate
from optiml_engine.model import (
    ArraySpec, Contract, InitSpec, DeviceCeilings, DeviceInfo, Frozen, OptimlError, ReferenceOracle, ResolvedContract,
    SizeCheck, SpeedupStats, TimingPolicy, TimingStats, Verdict, VerifyPolicy,
)
from optiml_engine.ir.interpret import run_program
from optiml_engine.ir.program import LoopProgram
from optiml_engine.oracle import oracle_outputs
from optiml_engine.source.contract import resolve
from optiml_engine.source.ctypes import numpy_name

REFERENCE_CACHE_BYTES = 8 << 30
BUFFER_SETS = 3
# A hold that timed out (the host took over a second to enqueue one launch) leaves a gap in its sample: launch again.
GATE_ATTEMPTS = 3


class CompiledKernel(Frozen):
    """A kernel ready to load: cubin + lowered name, with how to feed and launch it."""

    key: str                  # content hash: identifies the kernel in caches
    cubin: bytes
    lowered_name: str
    params: list[str]
    contract: Contract


class EvaluateJob(Frozen):
    candidate: CompiledKernel
    reference: CompiledKernel | ReferenceOracle   # a kernel run on the same inputs, or NumPy expressions (oracle.py)
    incumbent: CompiledKernel | None = None     # timed interleaved with the candidate when given
    bindings: list[dict[str, int]]              # the benchmark size first, then the check sizes
    verify: VerifyPolicy = VerifyPolicy()
    timing: TimingPolicy = TimingPolicy()
    time_it: bool = True
    # The reference kernel's program where it adds floats with atomics: their order, and so its fp32 rounding, is
    # the GPU's choice (on an H200, 2^24 values of about 1.3 added so came out 10% above their sum). A candidate
    # that disagrees with the reference is checked against this program run in double, and passes if it is within
    # tol; in verification and in the timed launches alike.
    exact: LoopProgram | None = None


class EvaluateOutcome(Frozen):
    verdict: Verdict
    reason: str = ""
    checks: list[SizeCheck] = Field(default_factory=list)
    timing: TimingStats | None = None
    incumbent_timing: TimingStats | None = None
    speedup: SpeedupStats | None = None
    context_lost: bool = False                  # the worker must be replaced before the next job


class CeilingsJob(Frozen):
    copy_bytes: int = 1 << 30
    gemm_size: int = 8192


class Rejected(Exception):
    def __init__(self, verdict: Verdict, reason: str):
        super().__init__(reason)
        self.verdict = verdict
        self.reason = reason


# ---------------------------------------------------------------------------------------------------------------
# Everything below runs inside the worker process only (CuPy and a CUDA context).


class Device:
    def __init__(self, index: int):
        import cupy

        self.cp = cupy
        self.index = index
        cupy.cuda.Device(index).use()
        props = cupy.cuda.runtime.getDeviceProperties(index)
        driver = cupy.cuda.runtime.driverGetVersion()
        runtime = cupy.cuda.runtime.runtimeGetVersion()
        self.info = DeviceInfo(
            index=index, name=props["name"].decode(), compute_capability=f"{props['major']}.{props['minor']}",
            sm_count=props["multiProcessorCount"], l2_bytes=props["l2CacheSize"],
            memory_bytes=props["totalGlobalMem"], sm_clock_mhz=props.get("clockRate", 0) // 1000,
            memory_clock_mhz=props.get("memoryClockRate", 0) // 1000,
            driver=f"{driver // 1000}.{driver % 1000 // 10}", runtime=f"{runtime // 1000}.{runtime % 1000 // 10}",
        )
        # Writing a buffer twice the L2's size evicts whatever a previous launch left there.
        self.flush_buffer = cupy.empty(2 * self.info.l2_bytes, dtype=cupy.uint8)
        self.gate = StreamGate(cupy)
        self.modules: dict[str, Any] = {}
        self.references: OrderedDict[tuple, dict[str, Any]] = OrderedDict()

    def function(self, kernel: CompiledKernel) -> Any:
        if kernel.key not in self.modules:
            module = self.cp.cuda.function.Module()
            module.load(kernel.cubin)
            self.modules[kernel.key] = (module, module.get_function(kernel.lowered_name))
        return self.modules[kernel.key][1]

    def flush_l2(self) -> None:
        self.flush_buffer.fill(0)

    def context_alive(self) -> bool:
        try:
            self.cp.cuda.runtime.deviceSynchronize()
            self.cp.zeros(1).sum().item()
            return True
        except Exception:
            return False


def launch(device: Device, kernel: CompiledKernel, resolved: ResolvedContract, buffers: dict[str, Any]) -> None:
    """One launch on the legacy default stream, which orders itself after all work of blocking streams."""
    cp = device.cp
    function = device.function(kernel)
    args = []
    scalar_types = {s.param: s.dtype for s in kernel.contract.scalars}
    for name in kernel.params:
        if name in buffers:
            args.append(buffers[name])
        else:
            args.append(cp.dtype(numpy_name(scalar_types[name])).type(resolved.scalars[name]))
    if resolved.smem > 48 * 1024:
        function.max_dynamic_shared_size_bytes = resolved.smem
    function(resolved.grid, resolved.block, tuple(args), shared_mem=resolved.smem)


def run_once(device: Device, kernel: CompiledKernel, resolved: ResolvedContract, inputs: dict[str, Any],
             poison: int) -> dict[str, Any]:
    """Run on copies of the inputs with outputs poisoned; return the compared arrays (out and inout)."""
    cp = device.cp
    buffers: dict[str, Any] = {}
    for spec in kernel.contract.arrays:
        if spec.direction == "out":
            buffers[spec.param] = poisoned(cp, spec.dtype, resolved.lengths[spec.param], poison)
        elif spec.direction == "inout":
            buffers[spec.param] = inputs[spec.param].copy()
        else:
            buffers[spec.param] = inputs[spec.param]
    launch(device, kernel, resolved, buffers)
    cp.cuda.runtime.deviceSynchronize()
    return {s.param: buffers[s.param] for s in kernel.contract.arrays if s.direction != "in"}


def trial_seed(base: int, binding: dict[str, int], trial: int) -> int:
    text = f"{base}:{sorted(binding.items())}:{trial}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:4], "little")


def reference_identity(job: EvaluateJob) -> str:
    """What a reference's outputs depend on besides the sizes and the seed. A kernel: its key (unit and contract).
    An oracle: its text, how the contract fills the arrays it reads, and the scalars it reads (two generated rmsnorm
    kernels differ only in eps: keyed without the scalars, the second was checked against the first's outputs)."""
    reference = job.reference
    if isinstance(reference, ReferenceOracle):
        return reference.text + job.candidate.contract.model_dump_json(include={"arrays", "scalars"})
    return reference.key


def reference_outputs(device: Device, job: EvaluateJob, binding: dict[str, int], seed: int,
                      inputs: dict[str, Any]) -> dict[str, Any]:
    """The reference's outputs for one input set, computed once and kept while memory allows."""
    reference = job.reference
    key = (reference_identity(job), tuple(sorted(binding.items())), seed)
    if key in device.references:
        device.references.move_to_end(key)
        return device.references[key]
    if isinstance(reference, ReferenceOracle):
        contract = job.candidate.contract
        try:
            outputs = oracle_outputs(device.cp, reference, contract, resolve(contract, binding), inputs)
        except OptimlError as error:
            raise Rejected("bad_reference", error.message)
    else:
        resolved = resolve(reference.contract, binding)
        outputs = run_once(device, reference, resolved, inputs, poison=1)
        for spec in reference.contract.arrays:
            if spec.direction != "out":
                continue
            held = still_poisoned(device.cp, outputs[spec.param], spec.dtype, 1)
            if bool(held.any()):
                # An output may equal the poison's value by chance (likely among millions of halves or bfloat16s):
                # unwritten means poisoned under the other poison too.
                again = run_once(device, reference, resolved, inputs, poison=0)
                held &= still_poisoned(device.cp, again[spec.param], spec.dtype, 0)
            if bool(held.any()):
                raise Rejected("bad_reference", f"the reference leaves elements of {spec.param} unwritten at "
                                                f"{fmt_binding(binding)}: fix its contract (launch, lengths) first")
    device.references[key] = outputs
    while sum(a.nbytes for v in device.references.values() for a in v.values()) > REFERENCE_CACHE_BYTES:
        device.references.popitem(last=False)
    return outputs


def exact_outputs(device: Device, job: EvaluateJob, binding: dict[str, int], seed: int,
                  inputs: dict[str, Any]) -> dict[str, Any]:
    """The compared arrays as the reference's program computes them in double on the same inputs (on the host, with
    NumPy), in their storage types; kept like the reference's own outputs."""
    key = ("exact", reference_identity(job), tuple(sorted(binding.items())), seed)
    if key not in device.references:
        contract = job.candidate.contract
        host = {name: device.cp.asnumpy(values) for name, values in inputs.items()}
        computed = run_program(job.exact, resolve(contract, binding), contract.arrays, host, exact=True)
        device.references[key] = {spec.param: device.cp.asarray(computed[spec.param].astype(storage_dtype(spec.dtype)))
                                  for spec in contract.arrays if spec.direction != "in"}
    device.references.move_to_end(key)
    return device.references[key]


def compare_all(device: Device, contract: Contract, outputs: dict[str, Any], expected: dict[str, Any],
                tol: float) -> Comparison:
    """The worst comparison over every compared array (the first failing one)."""
    worst = Comparison(0.0, "ok", "")
    for spec in contract.arrays:
        if spec.direction == "in":
            continue
        result = compare(device.cp, spec.param, outputs[spec.param], expected[spec.param], spec.dtype, tol,
                         contract.atol)
        if not result.ok:
            return result
        if result.rel_err > worst.rel_err:
            worst = result
    return worst


def poisoned_elements(device: Device, contract: Contract, runs: list[dict[str, Any]]) -> Rejected | None:
    """Outputs still holding the poison of their run: in every run, never written (`unwritten`); only in later
    runs, the kernel skips work it did before (`stateful`). Runs alternate poisons 0, 1, 0."""
    cp = device.cp
    for spec in contract.arrays:
        if spec.direction != "out":
            continue
        held = [still_poisoned(cp, run[spec.param], spec.dtype, index % 2) for index, run in enumerate(runs)]
        never = held[0] & held[1]
        if bool(never.any()):
            return Rejected("unwritten", f"{spec.param}: {int(never.sum())} of {never.size} elements never written "
                                         f"(first at [{int(cp.argmax(never))}]; they still hold the poison value)")
        # A value equal to the second poison by chance is written: the first run wrote the same value there.
        later = ((held[1] & (runs[1][spec.param] != runs[0][spec.param])) | held[2]) & ~held[0]
        if bool(later.any()):
            return Rejected("stateful", f"{spec.param}: {int(later.sum())} elements written by the first launch "
                                        f"are left unwritten by a later one (first at [{int(cp.argmax(later))}]): "
                                        f"the kernel keeps state across launches")
    return None


def judged(device: Device, job: EvaluateJob, binding: dict[str, int], seed: int, inputs: dict[str, Any],
           outputs: dict[str, Any], expected: dict[str, Any]) -> tuple[Comparison, bool]:
    """The outputs against the reference's, or, where they disagree and the reference adds floats with atomics,
    against its program in double (EvaluateJob.exact); and whether that second judgment was the one that held."""
    contract = job.candidate.contract
    result = compare_all(device, contract, outputs, expected, contract.tol)
    if not result.ok and result.verdict == "wrong" and job.exact is not None:
        exact = compare_all(device, contract, outputs, exact_outputs(device, job, binding, seed, inputs),
                            contract.tol)
        if exact.ok:
            return exact, True
    return result, False


def check_trial(device: Device, job: EvaluateJob, binding: dict[str, int], resolved: ResolvedContract,
                seed: int) -> tuple[Comparison, dict[str, Any], bool]:
    """One input set: three runs of the candidate (poison A, poison B, poison A again), each judged in the order
    that names the most specific defect: unwritten elements (or elements only later launches skip), a race (same inputs, same poison, different result),
    a dependence on prior memory contents, outputs that ignore the inputs, then plain disagreement with the
    reference (unless the candidate is within tol of the reference's program in double: see EvaluateJob.exact).
    Returns the comparison, the outputs, and whether they were judged against the program in double."""
    contract = job.candidate.contract
    inputs = make_inputs(device.cp, contract.arrays, resolved.lengths, seed)
    expected = reference_outputs(device, job, binding, seed, inputs)
    runs = [run_once(device, job.candidate, resolved, inputs, poison) for poison in (0, 1, 0)]
    poison_left = poisoned_elements(device, contract, runs)
    if poison_left:
        raise poison_left
    repeat = compare_all(device, contract, runs[2], runs[0], contract.tol)
    if not repeat.ok:
        raise Rejected("race", f"two runs on the same inputs disagree (a race between threads): {repeat.reason}")
    poison_free = compare_all(device, contract, runs[1], runs[0], contract.tol)
    if not poison_free.ok:
        raise Rejected("uninitialized_read", f"the result changes with the prior contents of the output buffers "
                                             f"(reads memory it has not written): {poison_free.reason}")
    result, exact = judged(device, job, binding, seed, inputs, runs[0], expected)
    if exact:
        return result, runs[0], True
    if not result.ok:
        other_seed = seed ^ 0x5EED
        other_inputs = make_inputs(device.cp, contract.arrays, resolved.lengths, other_seed)
        if outputs_identical(device, run_once(device, job.candidate, resolved, other_inputs, 0), runs[0]) and \
                not outputs_identical(device, reference_outputs(device, job, binding, other_seed, other_inputs),
                                      expected):
            raise Rejected("ignores_inputs", "outputs did not change when the inputs did (the reference's did)")
        raise Rejected(result.verdict, result.reason)
    return result, runs[0], False


def verify_candidate(device: Device, job: EvaluateJob) -> list[SizeCheck]:
    """Fresh inputs per trial (a new seed each) at every size: `check_trial` on each. The first failure rejects
    the candidate with its size and trial named."""
    checks = []
    for binding in job.bindings:
        resolved = resolve(job.candidate.contract, binding)
        worst, against_exact = 0.0, False
        for trial in range(job.verify.trials):
            try:
                result, _, exact = check_trial(device, job, binding, resolved,
                                               trial_seed(job.verify.seed, binding, trial))
            except Rejected as rejected:
                raise Rejected(rejected.verdict, f"at {fmt_binding(binding)}, trial {trial + 1}: {rejected.reason}")
            worst, against_exact = max(worst, result.rel_err), against_exact or exact
        checks.append(SizeCheck(binding=binding, trials=job.verify.trials, max_rel_err=worst, ok=True,
                                against_exact=against_exact))
    return checks


def outputs_identical(device: Device, left: dict[str, Any], right: dict[str, Any]) -> bool:
    return all(bool(device.cp.array_equal(left[name], right[name])) for name in left)


def fmt_binding(binding: dict[str, int]) -> str:
    return " ".join(f"{k}={v}" for k, v in binding.items())


def time_kernels(device: Device, job: EvaluateJob) -> tuple[TimingStats, TimingStats | None, SpeedupStats | None]:
    """Cold-L2 event timing (the stream held until the events and the launch are enqueued: gate.py) of the candidate (interleaved A B B A with the incumbent when one is given) at the
    benchmark size. Launches rotate over BUFFER_SETS separately allocated copies of the data, so that the samples
    (and the reported spread) include the effect of where the buffers happen to lie in memory, which otherwise
    differs only between processes. Before every timed launch, outside the timed window: inout arrays restored,
    outputs poisoned again, L2 flushed. Each buffer set's last outputs must still match the reference, so a kernel
    that keeps state across launches (and skips work after the first) is caught."""
    cp = device.cp
    binding = job.bindings[0]
    seed = trial_seed(job.verify.seed, binding, 0)
    contract = job.candidate.contract
    kernels = [job.candidate] + ([job.incumbent] if job.incumbent else [])
    resolved = {k.key: resolve(k.contract, binding) for k in kernels}
    lengths = resolved[job.candidate.key].lengths
    inputs = make_inputs(cp, contract.arrays, lengths, seed)
    expected = reference_outputs(device, job, binding, seed, inputs)
    pristine = dict(inputs)
    pristine.update({s.param: poisoned(cp, s.dtype, lengths[s.param], 0)
                     for s in contract.arrays if s.direction == "out"})
    written = [s.param for s in contract.arrays if s.direction != "in"]
    # Each kernel its own outputs (one cannot pass on the other's results), each set its own allocations.
    buffers = {(k.key, i): {name: array.copy() for name, array in pristine.items()}
               for k in kernels for i in range(BUFFER_SETS)}

    def timed_launch(kernel: CompiledKernel, buffer_set: int) -> float:
        own = buffers[kernel.key, buffer_set]
        for attempt in range(GATE_ATTEMPTS):
            for name in written:
                own[name][...] = pristine[name]
            device.flush_l2()
            start, stop = cp.cuda.Event(), cp.cuda.Event()
            with device.gate.held():
                start.record()
                launch(device, kernel, resolved[kernel.key], own)
                stop.record()
            stop.synchronize()
            if not device.gate.last_hold_timed_out():
                break
        return cp.cuda.get_elapsed_time(start, stop)

    for warmup in range(max(job.timing.warmup_runs, BUFFER_SETS)):
        for kernel in kernels:
            timed_launch(kernel, warmup % BUFFER_SETS)
    samples: dict[str, list[float]] = {k.key: [] for k in kernels}
    began = time.perf_counter()
    while not timing.enough_samples(samples[job.candidate.key], job.timing, time.perf_counter() - began):
        count = len(samples[job.candidate.key])
        order = kernels if count % 2 == 0 else kernels[::-1]
        for kernel in order:
            samples[kernel.key].append(timed_launch(kernel, count % BUFFER_SETS))
    for buffer_set in range(BUFFER_SETS):
        own = buffers[job.candidate.key, buffer_set]
        after, _ = judged(device, job, binding, seed, inputs, {n: own[n] for n in written}, expected)
        if not after.ok:
            raise Rejected("stateful", f"right when verified, wrong in the timed launches: {after.reason}")
    candidate_stats = timing.summarize(samples[job.candidate.key])
    if not job.incumbent:
        return candidate_stats, None, None
    incumbent_samples = samples[job.incumbent.key]
    return (candidate_stats, timing.summarize(incumbent_samples),
            timing.speedup_stats(samples[job.candidate.key], incumbent_samples))


def evaluate(device: Device, job: EvaluateJob) -> EvaluateOutcome:
    try:
        device.function(job.candidate)
        checks = verify_candidate(device, job)
        if not job.time_it:
            return EvaluateOutcome(verdict="ok", checks=checks)
        stats, incumbent_stats, speedup = time_kernels(device, job)
        return EvaluateOutcome(verdict="ok", checks=checks, timing=stats, incumbent_timing=incumbent_stats,
                               speedup=speedup)
    except Rejected as rejected:
        return EvaluateOutcome(verdict=rejected.verdict, reason=rejected.reason)
    except Exception as exc:  # a CUDA error from the candidate: the context may be gone
        alive = device.context_alive()
        verdict: Verdict = "launch_error" if alive else "crash"
        return EvaluateOutcome(verdict=verdict, reason=f"{exc.__class__.__name__}: {exc}", context_lost=not alive)


def measure_ceilings(device: Device, job: CeilingsJob) -> DeviceCeilings:
    """Device-to-device copy bandwidth (bytes read + written) and cuBLAS fp32 GEMM rate, medians of 10."""
    cp = device.cp
    source = cp.ones(job.copy_bytes // 4, dtype=cp.float32)
    target = cp.empty_like(source)

    def median_ms(action: Any, repeats: int = 10) -> float:
        action()
        samples = []
        for _ in range(repeats):
            start, stop = cp.cuda.Event(), cp.cuda.Event()
            start.record()
            action()
            stop.record()
            stop.synchronize()
            samples.append(cp.cuda.get_elapsed_time(start, stop))
        return timing.median(samples)

    copy_ms = median_ms(lambda: target.__setitem__(Ellipsis, source))
    n = job.gemm_size
    rng = cp.random.RandomState(1)
    a = rng.uniform(-1, 1, (n, n)).astype(cp.float32)
    b = rng.uniform(-1, 1, (n, n)).astype(cp.float32)
    c = cp.empty((n, n), dtype=cp.float32)
    gemm_ms = median_ms(lambda: cp.matmul(a, b, out=c), repeats=5)
    return DeviceCeilings(
        device=device.info, copy_gbps=2 * job.copy_bytes / (copy_ms * 1e-3) / 1e9,
        fp32_tflops=2 * n ** 3 / (gemm_ms * 1e-3) / 1e12, measured_at=time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    )


WARM_UP_LENGTHS = (4, 300, 1000, 4096, 1 << 16, 1 << 20, 1 << 24)


def warm_up(device: Device) -> None:
    """Compile CuPy's own kernels (fills, poisons, comparisons, norms) before the first job, so that a job's
    timeout measures the candidate, not CuPy's first-use compiles on a fresh machine (about 2 s each, 15 of them
    for a first float32 job: a 30 s timeout ran out). CuPy specializes its reductions by array length as well as
    type, hence a few lengths, from a check size to a timing size."""
    cp = device.cp
    for dtype in ("float32", "float64", "float16", "bfloat16", "int32", "uint32", "int64", "uint8"):
        spec = ArraySpec(param="x", direction="inout", dtype=dtype, length="1",
                         init=InitSpec(kind="range", args=(0, 2)) if dtype[0] in "iu" else
                         InitSpec(kind="uniform", args=(-1, 1)))
        for length in WARM_UP_LENGTHS:
            values = make_inputs(cp, [spec], {"x": length}, seed=0)["x"]
            for which in (0, 1):
                still_poisoned(cp, poisoned(cp, dtype, length, which), dtype, which)
            compare(cp, "x", values, values, dtype, 1e-5, None)
    device.flush_l2()
    cp.cuda.runtime.deviceSynchronize()


def serve(connection: Any, device_index: int) -> None:
    """Worker main loop: announce the device, then answer jobs until the pipe closes."""
    try:
        device = Device(device_index)
    except Exception as exc:
        connection.send(("error", f"cannot use CUDA device {device_index}: {exc}"))
        return
    warm_up(device)
    connection.send(("ready", device.info))
    while True:
        try:
            job = connection.recv()
        except EOFError:
            return
        try:
            if isinstance(job, EvaluateJob):
                result: Any = evaluate(device, job)
            elif isinstance(job, CeilingsJob):
                result = measure_ceilings(device, job)
            else:
                raise TypeError(f"unknown job {type(job).__name__}")
        except Exception:
            connection.send(("error", traceback.format_exc()))
            continue
        connection.send(("result", result))
        if isinstance(result, EvaluateOutcome) and result.context_lost:
            sys.exit(3)
