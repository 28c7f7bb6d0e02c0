"""The row_reduction template over the row-reduction rules (policies/rules/row_reduction.py): the same reader and
rewriter, with the threads that share a row (a warp, a group of warps, or the block) and the rows per block made
parameters."""

from __future__ import annotations

from optiml_engine.model import Candidate
from optiml_engine.policies.kernel_view import KernelView
from optiml_engine.policies.rules.row_reduction import (
    SYMPTOM, Layout, NotARowReduction, read_row_kernel, rows_expression, shared_rows)
from optiml_engine.policies.templates.base import WARP, Params, Template, TemplateMatch, element_bytes, grid

# Groups of warps that share a row wait on named barriers, one per group, ids 1 to 15 (0 is __syncthreads').
MAX_GROUPS = 8


class RowReductionTemplate(Template):
    name = "row_reduction"
    symptom = SYMPTOM

    def recognize(self, view: KernelView, node: Candidate) -> TemplateMatch | None:
        try:
            kernel = read_row_kernel(view)
        except NotARowReduction:
            return None
        if kernel.contiguous is None or rows_expression(node.contract, kernel.bound) is None:
            return None
        return TemplateMatch(self.name, view, node, kernel, f"thread-per-row reduction over {kernel.bound}")

    def space(self, match: TemplateMatch) -> list[Params]:
        return [p for p in grid(threads_per_row=(32, 64, 128, 256, 512, 1024), rows_per_block=(1, 2, 4, 8, 16, 32))
                if p["threads_per_row"] == WARP or p["rows_per_block"] <= MAX_GROUPS]

    def threads(self, params: Params) -> int:
        return params["threads_per_row"] * params["rows_per_block"]

    def shared_bytes(self, match: TemplateMatch, params: Params) -> int:
        if params["threads_per_row"] == WARP:
            return 0          # shuffles only
        # A buffer of one partial per warp of the block, per accumulator and loop.
        return sum(WARP * element_bytes(accumulator.ctype) for loop in match.plan.loops
                   for accumulator in loop.accumulators.values())

    def rewrite(self, match: TemplateMatch, params: Params) -> Candidate:
        layout = Layout(params["threads_per_row"], params["rows_per_block"])
        return shared_rows(match.view, match.node, match.plan, layout)


TEMPLATES: list[Template] = [RowReductionTemplate()]
