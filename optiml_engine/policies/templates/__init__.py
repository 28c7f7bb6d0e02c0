"""The built-in templates: one module per family, each exporting `TEMPLATES` (instances of templates.base.Template).

`TemplatePolicy` proposes, for every template that recognizes the node's kernel, a few feasible instances spread
over its space; `tune.tune` searches a space by measurement.
"""

from __future__ import annotations

import importlib
import pkgutil

from optiml_engine.model import Candidate
from optiml_engine.policies.base import Edit, Policy, PolicyContext
from optiml_engine.policies.kernel_view import KernelView
from optiml_engine.policies.templates.base import Compiler, Template, TemplateMatch


def all_templates() -> list[Template]:
    templates: list[Template] = []
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        templates += getattr(importlib.import_module(f"{__name__}.{module.name}"), "TEMPLATES", [])
    return templates


def matches(node: Candidate, templates: list[Template] | None = None) -> list[tuple[Template, TemplateMatch]]:
    """Every template that recognizes the node's kernel, with its match."""
    view = KernelView.of(node)
    found = []
    for template in templates if templates is not None else all_templates():
        match = template.recognize(view, node)
        if match is not None:
            found.append((template, match))
    return found


class TemplatePolicy(Policy):
    name = "templates"

    def __init__(self, templates: list[Template] | None = None, per_template: int = 6, compile: Compiler | None = None):
        self.templates = templates if templates is not None else all_templates()
        self.per_template = per_template
        self.compile = compile

    def propose(self, node: Candidate, context: PolicyContext) -> list[Edit]:
        """Each matching template's default instances that pass both prunings (arithmetic, compile report)."""
        edits = []
        for template, match in matches(node, self.templates):
            for params in template.defaults(match, context.device, self.per_template):
                instance = template.instance(match, params, context.device, self.compile)
                if instance.pruned is None:
                    edits.append(Edit(candidate=instance.candidate, rule=template.name,
                                      description=instance.candidate.description, symptom=template.symptom))
        return edits
