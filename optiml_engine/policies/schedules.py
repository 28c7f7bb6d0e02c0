"""The loop-nest program's policy (IR.md): a kernel that lifts gets schedules of its program as edits.

On a kernel this policy has not made: lift it (ir/lift.py), read which schedule families its program allows
(ir/schedule.py), and propose each family's first schedules, the family whose symptom the profiler reports first.
On a kernel it made: the schedules one parameter step away (block shape, points per thread, vector width, lanes per
point, tile rows), so that the search tree tunes each schedule by measurement as it goes. Every schedule is emitted
from the original kernel's program (ir/emit.py), never from an emitted kernel.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from optiml_engine.generate.algorithm import algorithm
from optiml_engine.gpu.compare import compare
from optiml_engine.gpu.compile import on_compile_threads
from optiml_engine.gpu.data import make_inputs
from optiml_engine.ir.analysis import extents_at_sizes, longest_loop_at_sizes, points_at_sizes
from optiml_engine.ir.collapse import collapsed
from optiml_engine.ir.delinearize import delinearized
from optiml_engine.ir.emit import EmitError, emit
from optiml_engine.ir.branched import loop_hoisted
from optiml_engine.ir.guarded import guarded_sums
from optiml_engine.ir.strided_lanes import lanes_folded
from optiml_engine.ir.implicit_gemm import implicit_gemm
from optiml_engine.ir.lift import lift
from optiml_engine.ir.interpret import InterpretError, run_program
from optiml_engine.ir.moments import one_pass_moments
from optiml_engine.ir.online import two_pass_normalizer
from optiml_engine.ir.phases import phased
from optiml_engine.ir.promote import accumulators_held
from optiml_engine.ir.unroll import unrolled
from optiml_engine.ir.welford import shifted_sums
from optiml_engine.ir.program import LoopProgram, NotLiftable
from optiml_engine.ir.schedule import Schedule, Shape, defaults, described, neighbours, shape_of
from optiml_engine.model import Candidate, Contract
from optiml_engine.policies.base import NO_REUSE, Edit, Policy, PolicyContext, symptom_rank
from optiml_engine.policies.templates.base import Compiler, default_compiler
from optiml_engine.source.contract import resolve


LOG = logging.getLogger(__name__)
SCHEDULES_KEPT = 2048      # emitted kernels whose schedule the policy remembers, most recent first
TWO_PASS = ("of the program with its online maximum and rescaled sum as two plain passes, a maximum then a sum, "
            "which a thread group shares as softmax's")
DIGITS = "over the row and column digits of the flat index, so that each operand's unit stride shows"
SHIFTED_SUMS = ("of the program with its running (Welford) mean and M2 as two shifted sums, which a thread group "
                "shares")
COLLAPSED = ("of the program with its nested loops made one loop over the product of their extents, which a thread "
             "group shares")
COLLAPSED_SHIFTED = ("of the program with its nested loops made one loop, then its running (Welford) mean and M2 as "
                     "two shifted sums over it, which a thread group shares")
GUARDED = ("of the program with its guarded sums made unconditional, adding zero where the condition fails, so that "
           "the value the loop carries is a scan's or a reduction's")
HOISTED = ("of the program with its branch's loop run for every point and the branch choosing what to write, so that "
           "the loop is at the top of the point's code")
LANES_FOLDED = ("of the program with the block's threads that stride one loop made one point walking it whole, so "
                "that a thread group shares the loop as the schedule chooses")
IMPLICIT_GEMM = ("of the program as a matrix product: the point's coordinates grouped by the factor that reads "
                 "them, its loops made one (a convolution as implicit GEMM)")
PHASED = ("of the program with its strided transposed convolution's taps walked by phase: each output visits only "
          "the taps on its stride, not all of them to skip S - 1 of every S")
PHASED_PRODUCT = ("of the program with its transposed convolution's taps walked by phase, then as a matrix product "
                  "per phase: the output's phase a batch, its place a column (a convolution as implicit GEMM)")
WRITTEN_OUT = ("of the program with its loops of a few constant iterations written out, so that each tap is a read "
               "at a constant offset from the point")
HELD = ("of the program with the output element its loop accumulates into held in a local, read once before the "
        "loop and written once after, so that the loop is the reduction it is")
CHECKS_INTERPRETED = 3     # check sizes a rewritten program is interpreted at against the original
ONE_PASS = ("of the program made one pass: the centered squares' loop folded into the sum's loop as shifted sums, "
            "so that the data is read once and the loop may split across blocks")
COLLAPSED_ONE_PASS = ("of the program with its nested loops made one loop, then its centered squares' loop folded into "
                      "the sum's loop as shifted sums, so that a thread group shares one pass over the data for both")

# What each family cures, in profiler terms: the symptom the search orders edits by, and the trajectory's words.
_CURES = {
    ("map", "x"): ("memory", "coalesced, wider accesses and more work per thread for a memory-bound map"),
    ("reduce", "x"): ("uncoalesced_loads", "a thread group shares each point's loops: neighbouring threads read "
                                           "neighbouring elements instead of one thread walking a row"),
    ("reduce", "y"): ("small_grid", "each point's loop split over threads along y: more threads in flight when "
                                    "there are few points, reads still coalesced across points"),
    ("reduce", "split"): ("small_grid", "each point's loop shared by several blocks, the last to finish combining "
                                        "their partials: enough blocks to fill the GPU when there are few points"),
    ("contraction", "x"): (NO_REUSE, "both operands staged through shared memory a loop tile at a time and a tile "
                                      "of outputs per thread: each loaded value is reused across the tile instead "
                                      "of two global loads per multiply-add"),
    ("privatize", "x"): ("atomics", "each thread sums its points in a register and each block adds its sum with one "
                                    "atomic, instead of one contended atomic per point"),
    ("scan", "x"): ("uncoalesced_loads", "a warp per point scans its loop: lanes take neighbouring stretches of "
                                         "the row, their totals combined by warp shuffles, instead of one thread "
                                         "walking the row"),
    ("scan", "y"): ("uncoalesced_loads", "a block of neighbouring points scans their loops together: threads along "
                                         "y take neighbouring stretches of each point's loop, their totals combined "
                                         "in shared memory, instead of one thread walking each loop alone"),
    ("stream", "x"): ("uncoalesced_loads", "each point's loop still walked by one thread, but its rows read and "
                                           "written through shared-memory windows the block loads and stores "
                                           "together: neighbouring threads touch neighbouring elements"),
    ("stage", "x"): ("uncoalesced_loads", "the transposed read goes through a shared-memory tile, loaded along its "
                                          "own unit stride"),
}


@dataclass(frozen=True)
class Scheduled:
    """What an emitted kernel was made of."""

    program: LoopProgram
    shape: Shape
    schedule: Schedule
    base: Candidate


def agrees_at_checks(program: LoopProgram, contract: Contract) -> Callable[[LoopProgram], bool]:
    """Whether a rewritten program computes what `program` does: both interpreted at the contract's check sizes
    on random inputs, their outputs compared within the contract's tolerance."""
    def agrees(rewritten: LoopProgram) -> bool:
        for seed, binding in enumerate(contract.checks[:CHECKS_INTERPRETED] or [contract.sizes]):
            resolved = resolve(contract, binding)
            inputs = make_inputs(np, contract.arrays, resolved.lengths, seed)
            try:
                want = run_program(program, resolved, contract.arrays, inputs)
                got = run_program(rewritten, resolved, contract.arrays, inputs)
            except InterpretError:
                return False
            if not all(compare(np, name, got[name], want[name], spec.dtype, contract.tol, contract.atol).ok
                       for spec in contract.arrays if spec.direction != "in" for name in [spec.param]):
                return False
        return True
    return agrees


def cure(shape: Shape, schedule: Schedule) -> tuple[str, str]:
    axis = ("split" if schedule.splits > 1 else schedule.lanes_axis) if schedule.family == "reduce" else \
        schedule.lanes_axis if schedule.family == "scan" else "x"
    return _CURES[(schedule.family, axis)]


class SchedulePolicy(Policy):
    name = "schedules"

    def __init__(self, compile: Compiler | None = None) -> None:
        self.compile = compile
        # Kept while recent: one policy serves every job of a long-lived language server, from their threads.
        self.made: OrderedDict[str, Scheduled] = OrderedDict()
        self.lock = threading.Lock()

    def propose(self, node: Candidate, context: PolicyContext) -> list[Edit]:
        with self.lock:
            made = self.made.get(node.unit.text)
            if made is not None:
                self.made.move_to_end(node.unit.text)
        if made is not None:
            return self.edits(made.program, made.shape, neighbours(made.shape, made.schedule), made.base, context,
                              f"a neighbour of {described(made.shape, made.schedule)}")
        try:
            return self.first_schedules(node, context)
        except Exception:   # noqa: BLE001 - a kernel the IR mis-reads still gets the rules and templates
            LOG.exception("the loop-nest program of %s failed; no schedules proposed", node.unit.kernel)
            return []

    def first_schedules(self, node: Candidate, context: PolicyContext) -> list[Edit]:
        """Each family's first schedules, of the lifted program and over the digits of its flat index, the family
        whose symptom the profiler reports first."""
        # A generated kernel's program is its spec's (generate/algorithm.py), and its schedules are made from the
        # spec's plain kernel, never from a schedule already emitted.
        base = algorithm(node)
        program = lift(base)
        if isinstance(program, NotLiftable):
            return []
        shape = shape_of(program)
        points = points_at_sizes(program, base.contract)
        found: list[tuple[str, LoopProgram, Shape, str | None]] = [
            (family, program, shape, None) for family in shape.families]
        # Over the digits of a flat index (ir/delinearize.py), a strided access shows and a tile can fix it, and a
        # read at `row * stride + col` becomes a vector access along the column digit (the flat index's `/` and `%`
        # hide that it is unit-stride).
        digits = delinearized(program)
        if digits is not program:
            digit_shape = shape_of(digits)
            found += [(family, digits, digit_shape, DIGITS) for family in digit_shape.families]
        # A two-pass centered second moment made one pass (ir/moments.py): its loop may then split across blocks;
        # an online softmax normalizer made two passes (ir/online.py), a Welford mean and M2 two shifted sums
        # (ir/welford.py): a thread group may then share them; nested loops made one (ir/collapse.py): a thread group
        # may then share a reduction over several axes, and then one pass where its passes are a sum and centered
        # squares (batch norm's statistics over N, H and W), or two shifted sums where it is a Welford loop; guarded
        # sums made unconditional (ir/guarded.py): a masked cumulative sum is then a scan, a masked sum a reduction
        # (only where the program was not one already); a
        # branch's loop run for every point (ir/branched.py): a triangular product is then a contraction, a loop
        # behind a boundary's branch a reduction or a scan (each only where the program was none); a block's threads
        # striding one loop and adding their partials atomically made one point's loop (ir/strided_lanes.py): a
        # thread group of the reduce family may then share it as it chooses.
        # A sum of products whose factors read different coordinates of the point made a matrix product
        # (ir/implicit_gemm.py: a convolution as implicit GEMM): a contraction's tiles may then reuse each value.
        # Over the digits too: a transposed convolution's `oh / 2` and `oh % 2` are digits of a flat index's digit,
        # coordinates only once the flat index is taken apart.
        agrees = agrees_at_checks(program, base.contract)
        # A strided transposed convolution's taps walked by phase (ir/phases.py): fewer taps for any schedule, and a
        # matrix product per phase where every tap was a product of zeros S - 1 times in S.
        by_phase, digits_by_phase = phased(program), phased(digits)
        flat = collapsed(program)
        flat_shifted = shifted_sums(flat, agrees) if flat is not program else flat
        guarded = guarded_sums(program)
        none_yet = not {"reduce", "scan", "contraction"} & set(shape.families)
        hoisted = loop_hoisted(program, agrees) if none_yet else program
        # An output element accumulated in memory inside the loop (ir/promote.py): held in a local, the loop is a
        # reduction, a contraction or a scan; over the digits too (only where the program was none of them).
        held = accumulators_held(program) if none_yet else program
        held_digits = accumulators_held(digits) if none_yet and digits is not program else digits
        # Over the digits too: a triangular product over a flat index is a 2-D product only once taken apart.
        hoisted_digits = loop_hoisted(digits, agrees) if none_yet and digits is not program else digits
        for rewritten, why, family in ((one_pass_moments(program), ONE_PASS, "reduce"),
                                       (two_pass_normalizer(program, agrees), TWO_PASS, "reduce"),
                                       (shifted_sums(program, agrees), SHIFTED_SUMS, "reduce"),
                                       (flat, COLLAPSED, "reduce"),
                                       (_one_pass_of_collapsed(program, flat), COLLAPSED_ONE_PASS, "reduce"),
                                       (flat_shifted if flat_shifted is not flat else program, COLLAPSED_SHIFTED,
                                        "reduce"),
                                       *((guarded, GUARDED, family) for family in ("scan", "reduce")
                                         if family not in shape.families),
                                       *((hoisted, HOISTED, family) for family in ("contraction", "reduce", "scan")),
                                       (hoisted_digits, HOISTED, "contraction"),
                                       *((held, HELD, family) for family in ("contraction", "reduce", "scan")),
                                       *((held_digits, HELD, family) for family in ("contraction", "reduce")),
                                       (lanes_folded(program), LANES_FOLDED, "reduce"),
                                       *(((by_phase, PHASED, "map"),
                                          (implicit_gemm(by_phase), PHASED_PRODUCT, "contraction"))
                                         if by_phase is not program else ()),
                                       *(((implicit_gemm(digits_by_phase), PHASED_PRODUCT, "contraction"),)
                                         if digits_by_phase is not digits else ()),
                                       # Only where the nest is not a contraction already: a batched product's
                                       # implicit GEMM is itself with its indices renamed.
                                       *(((implicit_gemm(program), IMPLICIT_GEMM, "contraction"),
                                          *(((implicit_gemm(digits), IMPLICIT_GEMM, "contraction"),)
                                            if digits is not program else ()))
                                         if "contraction" not in shape.families else ())):
            if rewritten is not program and rewritten is not digits:
                rewritten_shape = shape_of(rewritten)
                if family in rewritten_shape.families:
                    found.append((family, rewritten, rewritten_shape, why))
        # Constant loops written out (ir/unroll.py) where that shows the reads at constant offsets a stencil's taps
        # are: a thread's fused points then read the taps they share once (emit.py `common_reads`), and the
        # neighbour windows may share a row's across a warp. Only the fused schedules: the others gain nothing from
        # the taps written out.
        # The program over its digits too: a flat index's taps show once the index is taken apart.
        for written, source in ((unrolled(program), program), (unrolled(digits), digits)):
            if written is not source and written is not program and ((written_shape := shape_of(written)).fusable
                                                                     or written_shape.neighbour_rows and
                                                                     not shape_of(source).neighbour_rows):
                found.append(("map", written, written_shape, WRITTEN_OUT))
        found.sort(key=lambda entry: symptom_rank(cure(entry[2], Schedule(
            family=entry[0], lanes_axis=entry[2].lanes_axis))[0], context.diagnosis))
        return [edit for family, chosen, chosen_shape, why in found
                for edit in self.edits(chosen, chosen_shape,
                                       [s for s in defaults(chosen_shape, family, points,
                                                            extents_at_sizes(chosen, base.contract),
                                                            longest_loop_at_sizes(chosen, base.contract))
                                        if s.fused or why != WRITTEN_OUT],
                                       base, context, why)]

    def edits(self, program: LoopProgram, shape: Shape, schedules: list[Schedule], base: Candidate,
              context: PolicyContext, why: str | None) -> list[Edit]:
        """The schedules emitted, less those that do not compile or spill (an NVRTC compile each, as the templates'
        pruning)."""
        compile = self.compile or default_compiler(context.device)
        emitted = []
        for schedule in schedules:
            try:
                emitted.append((schedule, emit(program, shape, schedule, base)))
            except EmitError:
                continue
        found = []
        for (schedule, candidate), compiled in zip(emitted, on_compile_threads(compile, [c for _, c in emitted])):
            if not compiled.ok or compiled.resources is None or compiled.resources.spill_store_bytes:
                continue
            with self.lock:
                self.made[candidate.unit.text] = Scheduled(program, shape, schedule, base)
                if len(self.made) > SCHEDULES_KEPT:
                    self.made.popitem(last=False)
            symptom, words = cure(shape, schedule)
            description = f"{candidate.description}: {words}" + (f" ({why})" if why else "")
            found.append(Edit(candidate=candidate, rule=f"schedule_{schedule.family}", description=description,
                              symptom=symptom))
        return found


def _one_pass_of_collapsed(program: LoopProgram, flat: LoopProgram) -> LoopProgram:
    """The collapsed program (`flat`) made one pass: a batch norm's statistics over a nest, whose one loop a thread
    group may then share reading the data once for both sums. The program itself where either rewrite does nothing
    (the one-pass rewrite alone is an entry of its own)."""
    if flat is program:
        return program
    one_pass = one_pass_moments(flat)
    return program if one_pass is flat else one_pass
