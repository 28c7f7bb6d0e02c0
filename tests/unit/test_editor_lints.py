"""The editor's performance diagnostics: one per kernel and symptom, at the first place, its message counting the
others, which it keeps with their own advice (a 30-line layernorm got the same `#pragma unroll 4` advice three
times); and each lint's quick fix, its rule's first rewrite written into the file (`lint_fix`)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from optiml_engine.candidate import original_candidate
from optiml_engine.model import OptimlError
from optiml_engine.policies.base import PolicyContext
from optiml_engine.policies.rules import RulePolicy, document_lints, lint_fix
from optiml_engine.source.parse import CudaDocument

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "layernorm_three_loops.cu"


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


def parsed(path: Path) -> CudaDocument:
    return CudaDocument(path.read_text(), str(path.relative_to(ROOT)))


def test_each_lint_of_a_contracted_kernel_has_its_rules_first_rewrite_as_a_fix():
    document = parsed(FIXTURE)
    first_edits = {}
    for edit in RulePolicy().propose(original_candidate(document, "layernorm"), PolicyContext()):
        first_edits.setdefault(edit.rule, edit)
    lints = document_lints(document, grouped=True)
    assert {"unroll", "warp_per_row", "restrict_readonly"} <= {match.rule for match in lints}
    for match in lints:
        fix = lint_fix(document, "layernorm", match.rule)
        assert fix is not None, match.rule
        assert fix.description == first_edits[match.rule].description
        assert fix.edit.old_text == document.text and fix.edit.new_text != document.text
        rewritten = CudaDocument(fix.edit.new_text, document.model.path)
        assert [k.name for k in rewritten.model.kernels] == ["layernorm"] and not rewritten.model.syntax_problems
        assert rewritten.contract("layernorm").launch == first_edits[match.rule].candidate.contract.launch


def test_a_fix_that_changes_the_launch_rewrites_the_contract_and_the_launch_sites():
    document = parsed(ROOT / "examples" / "row_max.cu")
    fix = lint_fix(document, "row_max", "warp_per_row")
    assert fix.description == "warp per row, 256 threads (8 rows) per block"
    assert "+   launch: grid=cdiv(rows,8) block=256" in fix.edit.diff
    assert "row_max<<<(((rows) + 8 - 1) / 8), 256>>>(x, out, rows, cols);" in fix.edit.new_text


UNCONTRACTED = """\
__global__ void scale(const float* x, float* y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i];
}
"""


def test_no_fix_without_a_valid_contract_a_firing_rule_or_a_rewrite_that_keeps_the_contract():
    uncontracted = CudaDocument(UNCONTRACTED, "scale.cu")
    assert "restrict_readonly" in {match.rule for match in document_lints(uncontracted)}
    assert lint_fix(uncontracted, "scale", "restrict_readonly") is None
    row_max = parsed(ROOT / "examples" / "row_max.cu")
    assert lint_fix(row_max, "row_max", "no_such_rule") is None
    assert lint_fix(row_max, "no_such_kernel", "unroll") is None
    assert "atomic_block_reduce" not in {match.rule for match in document_lints(row_max)}
    assert lint_fix(row_max, "row_max", "atomic_block_reduce") is None
    broken = CudaDocument(row_max.text.replace("out float[rows]", "out float[rowz]"), row_max.model.path)
    with pytest.raises(OptimlError):
        broken.contract("row_max")
    assert lint_fix(broken, "row_max", "unroll") is None
    # relu_wild never writes its `out` array y: __restrict__ would make y const, against its contract
    crash = parsed(ROOT / "tests" / "gpu" / "defects" / "crash.cu")
    assert "restrict_readonly" in {match.rule for match in document_lints(crash, ["relu_wild"])}
    assert lint_fix(crash, "relu_wild", "restrict_readonly") is None
    assert lint_fix(crash, "relu", "restrict_readonly") is not None
