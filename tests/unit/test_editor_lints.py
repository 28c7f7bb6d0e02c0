"""The editor's performance diagnostics: one per kernel and symptom, at the first place, its message counting the
others, which it keeps with their own advice (a 30-line layernorm got the same `#pragma unroll 4` advice three
times)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from optiml_engine.policies.rules import document_lints
from optiml_engine.source.parse import CudaDocument

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "layernorm_three_loops.cu"


def test_one_diagnostic_per_kernel_and_symptom_keeping_the_other_places() -> None:
    document = CudaDocument(FIXTURE.read_text(), "layernorm_three_loops.cu")
    every = document_lints(document)
    shown = document_lints(document, grouped=True)
    symptoms = Counter(m.symptom for m in every)
    assert any(count > 1 for count in symptoms.values()), "the fixture should repeat some symptom"
    assert Counter(m.symptom for m in shown) == Counter(dict.fromkeys(symptoms, 1))
    for match in shown:
        group = [m for m in every if m.symptom == match.symptom]
        assert match.span == group[0].span
        assert [(p.span, p.message) for p in match.also] == [(m.span, m.message) for m in group[1:]]
        if len(group) > 1:
            count = len(group) - 1
            assert match.message == (f"{group[0].message} (and {count} more place{'s' if count > 1 else ''} in "
                                     f"this kernel with the same problem)")
