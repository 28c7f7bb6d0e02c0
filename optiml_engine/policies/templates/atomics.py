"""Templates over the atomics rules (policies/rules/atomics.py): a grid-stride loop over the elements with the
block's private accumulation, its block size, grid cap and unrolling made parameters.

- `global_reduction`: atomicAdd/Max/Min onto one address (atomic_block_reduce's reader and combine).
- `histogram`: atomicAdd into few bins (shared_privatization's reader), with `copies` histograms per block in
  shared memory, warp w counting into copy w % copies, so that fewer warps contend for one shared counter.
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass

from optiml_engine.model import Candidate, LaunchRule, OptimlError
from optiml_engine.policies.kernel_view import KernelView, derived
from optiml_engine.policies.rules.atomics import (
    AtomicBlockReduce, AtomicUpdate, KernelFacts, Privatized, SharedPrivatization, element_count, grid_covers,
    grid_stride_kernel, resolved_sizes)
from optiml_engine.policies.templates.base import SM_COUNT, WARP, Params, Template, TemplateMatch, grid
from optiml_engine.source.ctypes import itemsize


@dataclass(frozen=True)
class GridStridePlan:
    facts: KernelFacts
    count: str                 # the element count n, in contract terms
    array: str                 # the array the atomics update
    updates: list[AtomicUpdate]
    bins: int                  # histogram bins (1 for a reduction onto one address)


def _element_count(facts: KernelFacts, node: Candidate) -> str | None:
    """n in contract terms, when the original launch is 1-D and covers [0, n), and n >= 1 at every size (a
    grid-stride grid is never empty)."""
    if facts.shape is None:
        return None
    resolved = resolved_sizes(node.contract)
    count = element_count(facts.shape, node.contract)
    if count is None or any(r.grid[1:] != (1, 1) or r.block[1:] != (1, 1) for r in resolved) \
            or not grid_covers(facts.shape, resolved):
        return None
    probe = node.contract.model_copy(update={"launch": LaunchRule(grid=[count], block=["1"])})
    try:
        resolved_sizes(probe)
    except OptimlError:
        return None
    return count


class _GridStrideTemplate(Template):
    """block threads, at most blocks_per_sm x SM_COUNT blocks, `items` elements per thread at least (the loop
    unrolled that many times)."""

    def threads(self, params: Params) -> int:
        return params["block"]

    @abstractmethod
    def parts(self, match: TemplateMatch, params: Params) -> Privatized:
        """The private accumulation the loop runs."""

    def rewrite(self, match: TemplateMatch, params: Params) -> Candidate:
        plan: GridStridePlan = match.plan
        block, items = params["block"], params["items"]
        text = grid_stride_kernel(match.view, plan.facts.shape, self.parts(match, params), unroll=items)
        launch = LaunchRule(grid=[f"min(cdiv({plan.count},{block * items}),{params['blocks_per_sm'] * SM_COUNT})"],
                            block=[str(block)], smem="0")
        return derived(match.node, text, f"{match.what}: {self.describe_params(params)}", launch)

    def counter_bytes(self, match: TemplateMatch) -> int:
        return itemsize(match.plan.facts.element_dtype(match.plan.array))


class GlobalReductionTemplate(_GridStrideTemplate):
    name = "global_reduction"
    symptom = AtomicBlockReduce.symptom

    def recognize(self, view: KernelView, node: Candidate) -> TemplateMatch | None:
        facts = KernelFacts(view)
        update = next(AtomicBlockReduce.targets(facts), None)
        count = _element_count(facts, node) if update is not None else None
        if count is None:
            return None
        plan = GridStridePlan(facts, count, update.array, [update], 1)
        return TemplateMatch(self.name, view, node, plan, f"block reduce of {update.function} on {update.array}")

    def space(self, match: TemplateMatch) -> list[Params]:
        return grid(block=(128, 256, 512, 1024), blocks_per_sm=(1, 2, 4, 8), items=(1, 2, 4, 8))

    def shared_bytes(self, match: TemplateMatch, params: Params) -> int:
        return WARP * self.counter_bytes(match)      # one partial per warp

    def parts(self, match: TemplateMatch, params: Params) -> Privatized:
        plan: GridStridePlan = match.plan
        return AtomicBlockReduce.privatized(match.view, plan.facts, plan.updates[0])


class HistogramTemplate(_GridStrideTemplate):
    name = "histogram"
    symptom = SharedPrivatization.symptom

    def recognize(self, view: KernelView, node: Candidate) -> TemplateMatch | None:
        facts = KernelFacts(view)
        for array, updates in SharedPrivatization.targets(facts).items():
            bins = SharedPrivatization.bins(facts, array, updates, node.contract)
            count = _element_count(facts, node) if bins is not None else None
            if count is not None:
                return TemplateMatch(self.name, view, node, GridStridePlan(facts, count, array, updates, bins),
                                     f"shared-memory histogram of {array} ({bins} bins)")
        return None

    def space(self, match: TemplateMatch) -> list[Params]:
        # A copy per warp at most: more would never be counted into.
        return [p for p in grid(block=(128, 256, 512, 1024), blocks_per_sm=(1, 2, 4, 8), copies=(1, 2, 4, 8),
                                items=(1, 4))
                if p["copies"] <= p["block"] // WARP]

    def shared_bytes(self, match: TemplateMatch, params: Params) -> int:
        return params["copies"] * match.plan.bins * self.counter_bytes(match)

    def parts(self, match: TemplateMatch, params: Params) -> Privatized:
        plan: GridStridePlan = match.plan
        return SharedPrivatization.privatized(match.view, plan.facts, plan.array, plan.updates, plan.bins,
                                              params["copies"])


TEMPLATES: list[Template] = [GlobalReductionTemplate(), HistogramTemplate()]
