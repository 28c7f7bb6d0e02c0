"""The kernels and schedules the loop-nest program's tests enumerate: every kernel of examples/ and tests/heldout/
that lifts, and per family the schedules whose emitted code differs in kind (every vector width and points per
thread of a map at two block shapes, every reduce and stage schedule). The CPU tests (emulated) take each family's
defaults; the GPU tests take all of these."""

from __future__ import annotations

from pathlib import Path

from optiml_engine.candidate import original_candidate
from optiml_engine.ir.delinearize import delinearized
from optiml_engine.ir.lift import lift
from optiml_engine.ir.program import LoopProgram, NotLiftable
from optiml_engine.ir.schedule import Schedule, Shape, defaults, shape_of, space
from optiml_engine.model import Candidate
from optiml_engine.source.parse import CudaDocument

ROOT = Path(__file__).resolve().parent.parent
KERNEL_FILES = sorted((ROOT / "examples").glob("*.cu")) + sorted((ROOT / "tests" / "heldout").glob("*.cu"))


def original(path: Path) -> Candidate:
    document = CudaDocument(path.read_text(), path.relative_to(ROOT).as_posix())
    return original_candidate(document, document.model.kernels[0].name)


def lifted(path: Path) -> tuple[Candidate, LoopProgram | NotLiftable]:
    candidate = original(path)
    return candidate, lift(candidate)


def enumerated(shape: Shape, every: bool) -> list[Schedule]:
    """`every`: the GPU tests' enumeration; otherwise each family's defaults."""
    found: list[Schedule] = []
    for family in shape.families:
        if not every:
            # Both kinds of defaults: those for many points and those for few (which split a point across blocks).
            found += [s for s in defaults(shape, family, points_at_sizes=1) if s not in defaults(shape, family)] + \
                defaults(shape, family)
        elif family == "map":
            points = space(shape, family)
            shapes = sorted({s.block for s in points}, key=lambda b: (b[0] * b[1], b))
            kept = {shapes[0], shapes[-1]}
            found += [s for s in points if s.block in kept]
        else:
            found += space(shape, family)
    return found


def scheduled(path: Path, digits: bool) -> tuple[Candidate, LoopProgram, Shape]:
    """The kernel, its program (over the digits of its flat index when `digits`) and the program's shape."""
    candidate, program = lifted(path)
    if digits:
        program = delinearized(program)
    return candidate, program, shape_of(program)


def cases(every: bool) -> list[tuple[Path, bool, Schedule]]:
    """(kernel file, over its digits, schedule): every lifted kernel's schedules, and those the policy takes over
    the digits of a flat index."""
    out = []
    for path in KERNEL_FILES:
        _, program = lifted(path)
        if isinstance(program, LoopProgram):
            out += [(path, False, schedule) for schedule in enumerated(shape_of(program), every)]
            digits = delinearized(program)
            if digits is not program:
                out += [(path, True, schedule) for schedule in enumerated(shape_of(digits), every)]
    return out


def case_id(case: tuple[Path, bool, Schedule]) -> str:
    path, digits, schedule = case
    return f"{path.parent.name}/{path.stem}{' (digits)' if digits else ''}-{schedule.describe()}"
