"""A generated kernel's algorithm, and the first schedule of it that generate writes.

A generated kernel's contract carries the spec form it was read as (`spec:`). Its algorithm is the families' plain
kernel for that spec (a thread per output walking its loops as written): its loop-nest program is lifted from that,
not from the kernel in the file, which is a schedule of it (shared memory and shuffles, which the lifter does not
read) or a kernel an LLM or the user wrote in its place. The kernel generate writes is the program's first
schedule (IR.md: intent --build--> LoopProgram --(default schedule)--> first kernel), of the program as written, its
nested loops made one (ir/collapse.py) or, for a convolution, as a matrix product (ir/implicit_gemm.py); or the
plain kernel itself where the program is a map only (the plain kernel is its map), where no other schedule emits and
compiles, or where the lifter refuses the program, which it says.
"""

from __future__ import annotations

from functools import lru_cache

from optiml_engine.candidate import original_candidate
from optiml_engine.generate.families import generate_kernel
from optiml_engine.generate.spec import parse_spec
from optiml_engine.gpu.compile import compile_nvrtc
from optiml_engine.ir.analysis import extent, longest_loop_at_sizes, points_at_sizes
from optiml_engine.ir.collapse import collapsed
from optiml_engine.ir.emit import EmitError, emit
from optiml_engine.ir.implicit_gemm import implicit_gemm
from optiml_engine.ir.lift import lift
from optiml_engine.ir.program import NotLiftable
from optiml_engine.ir.schedule import described, first_schedules, shape_of
from optiml_engine.model import Candidate, GeneratedKernel, OptimlError
from optiml_engine.source.edit import apply_candidate
from optiml_engine.source.expr import evaluate
from optiml_engine.source.parse import CudaDocument


# A convolution's first kernel is its implicit GEMM where the weights have rows enough for a 64-row output tile (H100,
# bench/results/spec-h100/implicit-gemm/: with 8 and 16 output channels its first kernel ran 1.8-3.1x slower than the
# plain kernel; with 64 and 128 the 64-tile schedule it now starts from runs 1.6-3.2x faster); the search tries both.
FULL_TILE_ROWS = 64


def algorithm(candidate: Candidate) -> Candidate:
    """The candidate itself where its contract has no `spec:`; with one, the spec's plain kernel under the
    candidate's name and contract (sizes, checks, tolerance, reference), launched as the plain kernel is. Raises
    OptimlError at the contract where the spec does not parse or makes a kernel of other parameters."""
    spec = candidate.contract.spec
    if spec is None:
        return candidate
    try:
        plain = _plain(spec, candidate.unit.kernel)
    except OptimlError as error:
        raise OptimlError(candidate.contract.location, f"the contract's spec does not parse: {error.message}",
                          error.expected) from error
    if plain.params != candidate.params:
        raise OptimlError(candidate.contract.location,
                          f"the contract's spec ({spec}) makes a kernel of parameters ({', '.join(plain.params)}), "
                          f"not this kernel's ({', '.join(candidate.params)})",
                          "the spec the kernel was generated from, or no spec: line (the program is then read from "
                          "the kernel)")
    return plain.model_copy(update={"contract": candidate.contract.model_copy(
        update={"launch": plain.contract.launch})})


@lru_cache(maxsize=64)
def _plain(spec: str, kernel: str) -> Candidate:
    generated = generate_kernel(parse_spec(spec).model_copy(update={"kernel": kernel}))
    return original_candidate(CudaDocument(generated.text, f"<the plain kernel of spec: {spec}>"), kernel)


def first_kernel(generated: GeneratedKernel, arch: str = "sm_90") -> GeneratedKernel:
    """`generated` (the plain kernel) with its kernel replaced by the first of its program's first schedules that
    emits and compiles without spilling, its launch line with it; `generated` itself where there is none."""
    document = CudaDocument(generated.text, f"<generated {generated.kernel}>")
    plain = original_candidate(document, generated.kernel)
    program = lift(plain)
    if isinstance(program, NotLiftable):
        return generated.model_copy(update={"strategy": f"built-in, plain (no loop-nest program: {program.reason})"})
    shape = shape_of(program)
    flat = collapsed(program)
    flat_shape = shape_of(flat) if flat is not program else shape
    if "reduce" in flat_shape.families and "reduce" not in shape.families:
        program, shape = flat, flat_shape     # a reduction over several axes: one loop a thread group shares
    product = implicit_gemm(program)
    product_shape = shape_of(product) if product is not program else shape
    rows = extent(product, len(product.space) - 2, plain.contract)     # a batch of products (groups) outside
    if "contraction" in product_shape.families and "contraction" not in shape.families and rows is not None and \
            evaluate(rows, dict(plain.contract.sizes)) >= FULL_TILE_ROWS:
        program, shape = product, product_shape   # a convolution as a matrix product whose tiles reuse each value
    for schedule in first_schedules(shape, points_at_sizes(program, plain.contract),
                                    longest_loop_at_sizes(program, plain.contract)):
        try:
            scheduled = emit(program, shape, schedule, plain)
        except EmitError:
            continue
        compiled = compile_nvrtc(scheduled.unit, arch=arch)
        if not compiled.ok or compiled.resources is None or compiled.resources.spill_store_bytes:
            continue
        text = apply_candidate(generated.text, document.model, plain, scheduled).new_text
        return generated.model_copy(update={"text": text, "strategy": f"built-in, {described(shape, schedule)}"})
    return generated.model_copy(update={"strategy": "built-in, plain (a thread per output: its program's map)"})
