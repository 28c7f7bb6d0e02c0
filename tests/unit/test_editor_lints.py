"""The editor's performance diagnostics: a rule that fires at several places of one kernel is one diagnostic, at the
first place, counting the others (a 30-line layernorm got the same `#pragma unroll 4` advice three times)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from optiml_engine.policies.rules import document_lints
from optiml_engine.source.parse import CudaDocument

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "layernorm_three_loops.cu"


def test_one_diagnostic_per_rule_and_kernel_counting_the_other_places() -> None:
    document = CudaDocument(FIXTURE.read_text(), "layernorm_three_loops.cu")
    every = document_lints(document)
    shown = document_lints(document, one_per_rule=True)
    repeated = {rule: count for rule, count in Counter(m.rule for m in every).items() if count > 1}
    assert repeated, "the fixture should make some rule fire at several loops"
    assert Counter(m.rule for m in shown) == Counter({rule: 1 for rule in Counter(m.rule for m in every)})
    for rule, count in repeated.items():
        (match,) = [m for m in shown if m.rule == rule]
        first = next(m for m in every if m.rule == rule)
        assert match.span == first.span
        assert match.message.endswith(f"(and {count - 1} more place{'s' if count > 2 else ''} in this kernel)")
