"""The built-in templates: one module per family, each exporting `TEMPLATES` (instances of templates.base.Template).

`TemplatePolicy` proposes, for every template that recognizes the node's kernel, a few feasible instances spread
over its space; on a node that is itself one of its instances, the neighbours of that instance's parameters (one
parameter one value up or down), so that the search tree carries each template's own local search. `tune.tune`
searches a space by measurement outside the tree (the templates bench).
"""

from __future__ import annotations

import importlib
import pkgutil
import threading
from collections import OrderedDict

from optiml_engine.gpu.compile import on_compile_threads
from optiml_engine.model import Candidate
from optiml_engine.policies.base import Edit, Policy, PolicyContext
from optiml_engine.policies.kernel_view import KernelView
from optiml_engine.policies.templates.base import Compiler, Params, Template, TemplateMatch
from optiml_engine.policies.templates.tune import neighbours


INSTANCES_KEPT = 2048   # instances whose parameters the policy remembers, most recently proposed or expanded


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
        # Kept while recent: one policy serves every job of a long-lived language server, from their threads.
        self.instances: OrderedDict[str, tuple[Template, TemplateMatch, Params]] = OrderedDict()
        self.lock = threading.Lock()

    def propose(self, node: Candidate, context: PolicyContext) -> list[Edit]:
        """For an instance this policy made: its feasible neighbours. Otherwise each matching template's default
        instances. Both pass the two prunings (arithmetic, compile report)."""
        with self.lock:
            made = self.instances.get(node.unit.text)
            if made is not None:
                self.instances.move_to_end(node.unit.text)
        if made is not None:
            template, match, params = made
            points = neighbours(template.feasible_space(match, context.device), params)
            return self.edits(template, match, points, context, f"a neighbour of {template.describe_params(params)}")
        return [edit for template, match in matches(node, self.templates)
                for edit in self.edits(template, match, template.defaults(match, context.device, self.per_template),
                                       context, None)]

    def edits(self, template: Template, match: TemplateMatch, points: list[Params], context: PolicyContext,
              why: str | None) -> list[Edit]:
        found = []
        instances = on_compile_threads(lambda params: template.instance(match, params, context.device, self.compile),
                                       points)
        for params, instance in zip(points, instances):
            if instance.pruned is None:
                # Remembered by kernel text: a node of the tree carries no provenance, and rendering is deterministic.
                with self.lock:
                    self.instances[instance.candidate.unit.text] = (template, match, params)
                    if len(self.instances) > INSTANCES_KEPT:
                        self.instances.popitem(last=False)
                found.append(Edit(candidate=instance.candidate, rule=template.name,
                                  description=f"{instance.candidate.description} ({why})" if why
                                  else instance.candidate.description, symptom=template.symptom))
        return found
