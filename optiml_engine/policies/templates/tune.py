"""Tuning a template's parameters by measurement, after Kernel Tuner's strategies: every point when the feasible
space fits the budget; otherwise a random sample, then greedy local moves, each to an unmeasured neighbour (one
parameter one value up or down) of the best point measured so far. Deterministic for a seed."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import NamedTuple

from optiml_engine.model import Candidate, DeviceInfo
from optiml_engine.policies.templates.base import Compiler, Params, Template, TemplateMatch

Evaluate = Callable[[Candidate], float | None]   # measured time in ms; None when the candidate is rejected


class Trial(NamedTuple):
    params: Params
    time_ms: float | None     # None: rejected by `evaluate`, or pruned by the compile report
    pruned: str | None = None  # why the compile report pruned it (then `evaluate` never saw it)


def _key(params: Params) -> tuple:
    return tuple(sorted(params.items()))


def neighbours(space: list[Params], point: Params) -> list[Params]:
    """The points of `space` that differ from `point` in one parameter, by the nearest value below or above."""
    found = []
    for name, value in point.items():
        others = {k: v for k, v in point.items() if k != name}
        line = [p for p in space if all(p[k] == v for k, v in others.items())]
        below = [p for p in line if p[name] < value]
        above = [p for p in line if p[name] > value]
        if below:
            found.append(max(below, key=lambda p: p[name]))
        if above:
            found.append(min(above, key=lambda p: p[name]))
    return found


def tune(template: Template, match: TemplateMatch, evaluate: Evaluate, budget: int, seed: int,
         device: DeviceInfo | None = None, compile: Compiler | None = None) -> list[Trial]:
    """Trials in the order made; at most `budget` calls of `evaluate`. Points the compile report prunes cost a
    compile but no evaluation."""
    space = template.feasible_space(match, device)
    trials: list[Trial] = []
    tried: set[tuple] = set()

    def evaluations() -> int:
        return sum(t.pruned is None for t in trials)

    def run(params: Params) -> None:
        tried.add(_key(params))
        instance = template.instance(match, params, device, compile)
        if instance.pruned is not None:
            trials.append(Trial(params, None, instance.pruned))
        else:
            trials.append(Trial(params, evaluate(instance.candidate)))

    order = list(space)
    if len(space) > budget:
        random.Random(seed).shuffle(order)
    sample = iter(order)
    # Exhaustive, or the random half of the budget.
    while evaluations() < (budget if len(space) <= budget else max(1, budget // 2)):
        params = next(sample, None)
        if params is None:
            return trials
        run(params)
    while evaluations() < budget and len(tried) < len(space):
        measured = sorted((t for t in trials if t.time_ms is not None), key=lambda t: t.time_ms)
        step = next((p for t in measured for p in neighbours(space, t.params) if _key(p) not in tried), None)
        if step is None:     # every measured point's neighbourhood is done: a random point not yet tried
            step = next(p for p in sample if _key(p) not in tried)
        run(step)
    return trials


def best(trials: list[Trial]) -> Trial | None:
    return min((t for t in trials if t.time_ms is not None), key=lambda t: t.time_ms, default=None)
