"""Templates over the tiling rules (policies/rules/tiling.py): the same readers and renders, with the tile sizes the
rules fix made parameters."""

from __future__ import annotations

from abc import abstractmethod

from optiml_engine.model import Candidate
from optiml_engine.policies.kernel_view import KernelView
from optiml_engine.policies.rules.tiling import (
    ColumnReduce, GemmConfig, GemmTile, StencilTile, TransposeTile, column_plan, gemm_plan, stencil_plan,
    transpose_plan)
from optiml_engine.policies.templates.base import Params, Template, TemplateMatch, element_bytes, grid

FLOAT = 4


def _param_bytes(view: KernelView, array: str) -> int:
    return element_bytes(next(p.base_type for p in view.kernel.params if p.name == array))


class PlannedTemplate(Template):
    """A template whose pattern is one of the tiling rules' plans: recognized when the rule's reader finds one."""

    @abstractmethod
    def plan(self, view: KernelView):
        """The rule's plan of the kernel, or None."""

    @abstractmethod
    def describe(self, plan) -> str:
        """One line naming what was recognized."""

    def recognize(self, view: KernelView, node: Candidate) -> TemplateMatch | None:
        plan = self.plan(view)
        return None if plan is None else TemplateMatch(self.name, view, node, plan, self.describe(plan))


class GemmTemplate(PlannedTemplate):
    """Shared-memory tiles of A and B (BM x BK and BK x BN), TM x TN outputs per thread in registers; fp32 FFMA,
    no TF32; NN, NT and TN layouts (the rule's reader)."""

    name = "gemm"
    symptom = GemmTile.symptom

    def plan(self, view: KernelView):
        return gemm_plan(view)

    def describe(self, plan) -> str:
        return f"fp32 GEMM C = {plan.a.array} * {plan.b.array}"

    def space(self, match: TemplateMatch) -> list[Params]:
        # Fewer than two warps per block hide nothing: those points are left out of the grid.
        return [p for p in grid(BM=(32, 64, 128), BN=(32, 64, 128), BK=(8, 16, 32), TM=(2, 4, 8), TN=(2, 4, 8))
                if self.threads(p) >= 2 * 32]

    @staticmethod
    def config(params: Params) -> GemmConfig:
        return GemmConfig(params["BM"], params["BN"], params["BK"], params["TM"], params["TN"])

    def threads(self, params: Params) -> int:
        return self.config(params).threads

    def shared_bytes(self, match: TemplateMatch, params: Params) -> int:
        return params["BK"] * (params["BM"] + 4 + params["BN"] + 4) * FLOAT     # padded rows, as rendered

    def rewrite(self, match: TemplateMatch, params: Params) -> Candidate:
        return GemmTile.render(match.view, match.node, match.plan, self.config(params))


class TransposeTemplate(PlannedTemplate):
    """A tile x tile shared-memory tile (padded by a column) of each array read transposed, blocks of tile x rows
    threads."""

    name = "transpose"
    symptom = TransposeTile.symptom

    def plan(self, view: KernelView):
        return transpose_plan(view)

    def describe(self, plan) -> str:
        return f"transposed reads of {', '.join(plan.reads)}"

    def space(self, match: TemplateMatch) -> list[Params]:
        return [p for p in grid(tile=(16, 32, 64), rows=(2, 4, 8, 16)) if p["rows"] < p["tile"]]

    def threads(self, params: Params) -> int:
        return params["tile"] * params["rows"]

    def shared_bytes(self, match: TemplateMatch, params: Params) -> int:
        tile = params["tile"]
        return sum(tile * (tile + 1) * _param_bytes(match.view, array) for array in match.plan.reads)

    def rewrite(self, match: TemplateMatch, params: Params) -> Candidate:
        return TransposeTile.render(match.view, match.node, match.plan, params["tile"], params["rows"])


class StencilTemplate(PlannedTemplate):
    """A shared-memory tile of width x height outputs plus the halo, blocks of width x block_rows threads."""

    name = "stencil"
    symptom = StencilTile.symptom

    def plan(self, view: KernelView):
        return stencil_plan(view)

    def describe(self, plan) -> str:
        return f"stencil of radius {plan.radius_y}x{plan.radius_x} on {', '.join(plan.reads)}"

    def space(self, match: TemplateMatch) -> list[Params]:
        return [p for p in grid(width=(32, 64), block_rows=(4, 8, 16), height=(16, 32, 64))
                if p["height"] % p["block_rows"] == 0]

    def threads(self, params: Params) -> int:
        return params["width"] * params["block_rows"]

    def shared_bytes(self, match: TemplateMatch, params: Params) -> int:
        plan = match.plan
        cells = (params["height"] + 2 * plan.radius_y) * (params["width"] + 2 * plan.radius_x)
        return sum(cells * _param_bytes(match.view, array) for array in plan.reads)

    def rewrite(self, match: TemplateMatch, params: Params) -> Candidate:
        return StencilTile.render(match.view, match.node, match.plan, params["width"], params["block_rows"],
                                  params["height"])


class ColumnReductionTemplate(PlannedTemplate):
    """width columns per block, each column's rows split among the height rows of threads, a tree sum in shared
    memory (height a power of two)."""

    name = "column_reduction"
    symptom = ColumnReduce.symptom

    def plan(self, view: KernelView):
        return column_plan(view)

    def describe(self, plan) -> str:
        return f"thread-per-column sum into {plan.reduction.acc}"

    def space(self, match: TemplateMatch) -> list[Params]:
        return grid(width=(16, 32, 64), height=(4, 8, 16, 32))

    def threads(self, params: Params) -> int:
        return params["width"] * params["height"]

    def shared_bytes(self, match: TemplateMatch, params: Params) -> int:
        return self.threads(params) * element_bytes(match.plan.reduction.acc_type)

    def rewrite(self, match: TemplateMatch, params: Params) -> Candidate:
        return ColumnReduce.render(match.view, match.node, match.plan, params["width"], params["height"])


TEMPLATES: list[Template] = [GemmTemplate(), TransposeTemplate(), StencilTemplate(), ColumnReductionTemplate()]
