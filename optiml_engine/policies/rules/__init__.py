"""The built-in rewrite rules: one module per rule family, each exporting `RULES` (instances of policies.base.Rule).

`RulePolicy` proposes every applicable rule's rewrites; `lints` runs the same detectors over the user's own file for
the editor's diagnostics (no GPU needed), and `lint_fix` writes a lint's rewrite into that file (its quick fix).
"""

from __future__ import annotations

import importlib
import math
import pkgutil

from optiml_engine.candidate import original_candidate
from optiml_engine.model import Candidate, Frozen, OptimlError
from optiml_engine.policies.base import Edit, Match, Place, Policy, PolicyContext, Rule
from optiml_engine.policies.kernel_view import KernelView
from optiml_engine.policies.rules.knobs import launch_bounds_replacement
from optiml_engine.source.edit import FileEdit, apply_candidate
from optiml_engine.source.parse import CudaDocument


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
                edits += [bounds_fitted(edit, node) for edit in rule.rewrite(view, node)]
        return edits


def bounds_fitted(edit: Edit, node: Candidate) -> Edit:
    """The edit with the kernel's `__launch_bounds__` (block_size's, a template's) raised to the new block when a
    rule changed the block beyond it: a launch of more threads than the bounds fails (row_max on the H100: a block
    per row of 1024 threads after block_size's bounds of 256)."""
    if edit.candidate.contract.launch.block == node.contract.launch.block:
        return edit
    block = edit.candidate.contract.launch.block
    view = KernelView.of(edit.candidate)
    bounds = view.kernel.launch_bounds            # "256" or "256, 2": the first is the most threads per block
    if bounds is None or not all(b.strip().isdigit() for b in block):
        return edit
    threads = math.prod(int(b) for b in block)
    most = bounds.split(",")[0].strip()
    if most.isdigit() and int(most) >= threads:
        return edit
    text = view.replaced([launch_bounds_replacement(view, threads)])
    unit = edit.candidate.unit.model_copy(update={"text": text})
    return edit.model_copy(update={"candidate": edit.candidate.model_copy(update={"unit": unit})})


def lints(text: str, path: str, kernel_name: str, rules: list[Rule] | None = None) -> list[Match]:
    """Every rule's findings on one kernel of the user's file, located in that file."""
    return document_lints(CudaDocument(text, path), [kernel_name], rules)


def document_lints(document: CudaDocument, kernel_names: list[str] | None = None,
                   rules: list[Rule] | None = None, grouped: bool = False) -> list[Match]:
    """The findings on the named kernels (all by default) of a parsed document, without parsing it again. With
    `grouped` (the editor's diagnostics), one finding per kernel and symptom: the first place, its message counting
    the others, which it keeps with their own advice (`also`): the same advice three times over is noise."""
    chosen = rules if rules is not None else all_rules()
    names = kernel_names if kernel_names is not None else [k.name for k in document.model.kernels]
    found: list[Match] = []
    for name in names:
        view = KernelView.in_document(document, name)
        matches = [match for rule in chosen for match in rule.detect(view)]
        if not grouped:
            found += matches
            continue
        by_symptom: dict[str, list[Match]] = {}
        for match in matches:
            by_symptom.setdefault(match.symptom, []).append(match)
        for group in by_symptom.values():
            first, others = group[0], group[1:]
            if others:
                count = len(others)
                first = first.model_copy(update={
                    "message": f"{first.message} (and {count} more place{'s' if count > 1 else ''} in this kernel "
                               f"with the same problem)",
                    "also": [Place(span=m.span, message=m.message) for m in others]})
            found.append(first)
    return found


class LintFix(Frozen):
    """A lint's rewrite written into the user's file: not verified (the search's evaluator does that, on a GPU)."""

    description: str          # the rule's one line: what changed
    edit: FileEdit


def lint_fix(document: CudaDocument, kernel_name: str, rule_name: str) -> LintFix | None:
    """The file with rule `rule_name`'s first rewrite of the kernel, as the search would first try it (its launch
    bounds fitted, the contract's launch line and the file's launch sites updated). None when the kernel has no
    valid contract (a rewrite may change the launch, which only the contract states; the diagnostics show a broken
    one), when the rule does not fire on the kernel or has no rewrite for it, and when the rewritten file would not
    parse as cleanly or its contract would no longer hold: a quick fix must not leave the file broken."""
    rule = next((rule for rule in all_rules() if rule.name == rule_name), None)
    if rule is None or document.model.kernel(kernel_name) is None:
        return None
    try:
        original = original_candidate(document, kernel_name)
    except OptimlError:
        return None
    view = KernelView.of(original)
    if not rule.detect(view):
        return None
    edits = rule.rewrite(view, original)
    if not edits:
        return None
    first = bounds_fitted(edits[0], original)
    edit = apply_candidate(document.text, document.model, original, first.candidate)
    rewritten = CudaDocument(edit.new_text, document.model.path)
    if len(rewritten.model.syntax_problems) > len(document.model.syntax_problems):
        return None
    try:   # e.g. `restrict_readonly` makes an `out` array the kernel never writes const
        original_candidate(rewritten, kernel_name)
    except OptimlError:
        return None
    return LintFix(description=first.description, edit=edit)
