"""The built-in rewrite rules: one module per rule family, each exporting `RULES` (instances of policies.base.Rule).

`RulePolicy` proposes every applicable rule's rewrites; `lints` runs the same detectors over the user's own file for
the editor's diagnostics (no GPU needed).
"""

from __future__ import annotations

import importlib
import pkgutil

from optiml_engine.model import Candidate
from optiml_engine.policies.base import Edit, Match, Policy, PolicyContext, Rule
from optiml_engine.policies.kernel_view import KernelView


def all_rules() -> list[Rule]:
    rules: list[Rule] = []
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        rules += getattr(importlib.import_module(f"{__name__}.{module.name}"), "RULES", [])
    return rules


class RulePolicy(Policy):
    name = "rules"

    def __init__(self, rules: list[Rule] | None = None):
        self.rules = rules if rules is not None else all_rules()

    def propose(self, node: Candidate, context: PolicyContext) -> list[Edit]:
        view = KernelView.of(node)
        edits: list[Edit] = []
        for rule in self.rules:
            if rule.detect(view):
                edits += rule.rewrite(view, node)
        return edits


def lints(text: str, path: str, kernel_name: str, rules: list[Rule] | None = None) -> list[Match]:
    """Every rule's findings on one kernel of the user's file, located in that file."""
    view = KernelView(text, path, kernel_name)
    return [match for rule in (rules if rules is not None else all_rules()) for match in rule.detect(view)]
