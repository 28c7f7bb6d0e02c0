"""Measurement cache keys: equal for the same candidate, different when anything that decides a result changes."""

from pathlib import Path

from optiml_engine.cache import content_key
from optiml_engine.candidate import original_candidate
from optiml_engine.evaluate import candidate_key
from optiml_engine.source.parse import CudaDocument

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "relu_scale.cu"


def candidate(text: str):
    return original_candidate(CudaDocument(text, "relu_scale.cu"), "relu_scale")


def test_same_candidate_same_key_even_when_the_file_moves_lines():
    text = EXAMPLE.read_text()
    assert candidate_key(candidate(text)) == candidate_key(candidate(text))
    shifted = candidate("// a comment that moves everything down a line\n" + text)
    assert shifted.contract.location.line != candidate(text).contract.location.line
    # The #line directives in the unit move too: a moved kernel is a different compile unit (its messages differ).
    assert candidate_key(shifted) != candidate_key(candidate(text))


def test_source_contract_and_flags_each_change_the_key():
    text = EXAMPLE.read_text()
    base = candidate(text)
    body_changed = candidate(text.replace("v * scale", "scale * v"))
    contract_changed = candidate(text.replace("scale:  0.5", "scale:  0.25"))
    flagged = base.model_copy(update={"flags": ["--use_fast_math"]})
    keys = {candidate_key(c) for c in (base, body_changed, contract_changed, flagged)}
    assert len(keys) == 4


def test_content_key_separates_parts():
    assert content_key("ab", "c") != content_key("a", "bc")
    assert content_key("x") == content_key("x")
