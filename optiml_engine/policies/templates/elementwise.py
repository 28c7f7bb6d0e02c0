"""The elementwise template over the elementwise rules' reader (policies/rules/elementwise.py): `items` elements
per thread in groups of `width` consecutive ones (one 8- or 16-byte vector access per array and group when width
is 2 or 4), blocks of `block` threads, each block's groups contiguous so that every access of a warp is coalesced.
A thread whose elements all lie under the bound loads them all first (staged lanes, as vectorize_16b and
grid_stride do), then runs the statements on registers and stores; the last threads take theirs one by one."""

from __future__ import annotations

from dataclasses import dataclass

from optiml_engine.model import Candidate, LaunchRule
from optiml_engine.policies.kernel_view import KernelView, derived
from optiml_engine.policies.rules.elementwise import (
    Elementwise, ScalarRegisters, VectorRegisters, arrays_hold_bound, bound_values, cdiv_extent, covered_bounds,
    elementwise, fresh_name, kernel_with_body, launch_covers, nodes_under, staged_lanes, statements_text)
from optiml_engine.policies.templates.base import Params, Template, TemplateMatch, grid


@dataclass(frozen=True)
class ElementwisePlan:
    shape: Elementwise
    extent: str               # how many elements the original grid covers, in contract terms
    staged: bool              # every access is p[index] of 4-byte elements, each array as long as the bound


def _extent(view: KernelView, shape: Elementwise, node: Candidate) -> str:
    """E of the contract's `grid=cdiv(E,B) block=B` when E threads cover the bound at every size; the grid's thread
    count otherwise (which covers it: the original launch does)."""
    launch = node.contract.launch
    extent = cdiv_extent(launch.grid[0], launch.block[0], node.contract)
    if extent is not None:
        probe = node.contract.model_copy(update={"launch": LaunchRule(grid=[extent], block=["1"])})
        bounds = bound_values(view, shape.grid, probe)
        if bounds is not None and launch_covers(shape.grid, bounds):
            return extent
    return f"({launch.grid[0]})*({launch.block[0]})"


class ElementwiseTemplate(Template):
    name = "elementwise"
    symptom = "memory"

    def recognize(self, view: KernelView, node: Candidate) -> TemplateMatch | None:
        shape = elementwise(view)
        bounds = None if shape is None else covered_bounds(view, shape, node.contract)
        if bounds is None:
            return None
        # Per-element loops (row and column reductions) and atomics are other templates' patterns: more elements
        # per thread leaves their access pattern and contention as they are.
        if any(True for _ in nodes_under(view, shape.body, "for_statement", "while_statement", "do_statement")) \
                or any(view.text(call.child_by_field_name("function")).startswith("atomic")
                       for call in nodes_under(view, shape.body, "call_expression")):
            return None
        plan = ElementwisePlan(shape, _extent(view, shape, node), arrays_hold_bound(shape, bounds))
        return TemplateMatch(self.name, view, node, plan,
                             f"elementwise over {view.text(shape.bound)}")

    def space(self, match: TemplateMatch) -> list[Params]:
        return [p for p in grid(block=(128, 256, 512, 1024), items=(1, 2, 4, 8), width=(1, 2, 4))
                if p["items"] % p["width"] == 0 and (p["width"] == 1 or match.plan.staged)]

    def threads(self, params: Params) -> int:
        return params["block"]

    def shared_bytes(self, match: TemplateMatch, params: Params) -> int:
        return 0

    def rewrite(self, match: TemplateMatch, params: Params) -> Candidate:
        view, plan = match.view, match.plan
        shape, block, items, width = plan.shape, params["block"], params["items"], params["width"]
        index, bound, groups = shape.index, view.text(shape.bound), items // width
        taken: set[str] = set()
        first, lane = fresh_name(view, f"{index.name}_first", taken), fresh_name(view, "lane", taken)
        stride = "blockDim.x" if width == 1 else f"blockDim.x * {width}"

        def group_first(group: int) -> str:
            return first if group == 0 else f"{first} + {group} * {stride}" if group > 1 else f"{first} + {stride}"

        def lane_index(k: int) -> str:
            return group_first(k // width) + (f" + {k % width}" if k % width else "")

        lane_offset = f"{lane} * blockDim.x" if width == 1 else f"{lane} / {width} * {stride} + {lane} % {width}"
        one_by_one = (f"for (int {lane} = 0; {lane} < {items}; ++{lane}) {{\n"
                      f"    const {index.type_text} {index.name} = {first} + {lane_offset};\n"
                      f"    if ({index.name} < {bound}) {{\n"
                      f"{statements_text(view, shape.body, ' ' * 8)}\n"
                      f"    }}\n"
                      f"}}")
        code = (f"// {items} elements per thread in {groups} group{'s' if groups > 1 else ''} of {width}; a block's "
                f"groups are contiguous.\n"
                f"const {index.type_text} {first} = blockIdx.x * (blockDim.x * {items}) + threadIdx.x * {width};\n")
        if plan.staged:
            registers = ScalarRegisters(view, items, lane_index, taken) if width == 1 else \
                VectorRegisters(view, group_first, width, groups, taken)
            code += (f"if ({group_first(groups - 1)} + {width} <= {bound}) {{\n"
                     f"{staged_lanes(view, shape.per_index(), items, lane_index, registers, '    ')}\n"
                     f"}} else {{\n"
                     f"{_indented(one_by_one)}\n"
                     f"}}")
        else:
            code += f"#pragma unroll\n{one_by_one}"
        launch = LaunchRule(grid=[f"cdiv({plan.extent},{block * items})"], block=[str(block)], smem="0")
        return derived(match.node, kernel_with_body(view, shape.grid.prelude, _indented(code)),
                       f"{match.what}: {self.describe_params(params)}", launch)


def _indented(code: str) -> str:
    return "\n".join("    " + line if line else line for line in code.splitlines())


TEMPLATES: list[Template] = [ElementwiseTemplate()]
