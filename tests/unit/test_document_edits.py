"""An open document under edits: the model and the contracts it keeps equal what a fresh parse gives, and only what an
edit touches is read again."""

from __future__ import annotations

import random

import pytest

from optiml_engine.model import Location, OptimlError, Position
from optiml_engine.source import contract as contract_module
from optiml_engine.source.contract import ContractCache, parse_contract
from optiml_engine.source.parse import CudaDocument, parse_source

from tests.unit.test_parse import DEMO, position_of

PATH = "kernels/demo.cu"

# Kernels whose contracts are right, wrong, or absent, so that edits move results and errors alike.
CONTRACTS = """\
/* @optiml
   sizes:  n=1024
   x:      in  float[n]
   y:      out float[n]
   launch: grid=cdiv(n,256) block=256
*/
__global__ void scale(const float* x, float* y, int n) { if (n) y[0] = x[0]; }

// @optiml
// sizes:  n=64
// x:      inout float[n]
// launch: grid=1 block=n
__global__ void bump(float* x, int n) { x[0] += 1.0f; }

/* @optiml
   sizes:  n=64
   x:      in float[m]
   launch: grid=1 block=64
*/
__global__ void broken(const float* x, int n) { }

__global__ void bare(float* x, float alpha) { x[0] = alpha; }

void host(float* x, float* y, int n) {
    scale<<<(n + 255) / 256, 256>>>(x, y, n);
    bump<<<1, n>>>(x, n);
}
"""


def outcome(get):
    """A contract, or the error's location and text: what a caller can tell apart."""
    try:
        return get()
    except OptimlError as error:
        return (error.location, error.message, error.expected)


def assert_matches_a_fresh_parse(document: CudaDocument) -> None:
    fresh = parse_source(document.text, PATH)
    assert document.model == fresh
    for kernel in fresh.kernels:
        expected = outcome(lambda: parse_contract(fresh.kernel(kernel.name), PATH))
        assert outcome(lambda: document.contract(kernel.name)) == expected, kernel.name


def insert(document: CudaDocument, needle: str, text: str) -> None:
    at = position_of(document.text, needle)
    document.apply_change(at, at, text)


# ---------------------------------------------------------------------------------------------------------------
# The model and the contracts after edits


SNIPPETS = ["\n", "\n\n", " ", "x", "}", "{", ";", "/*", "*/", "// note\n", "é", "<<<", "k<<<1, 2>>>(p);",
            "__global__ void added(float* p, int n) { p[0] = 0; }\n", "/* @optiml\n sizes: n=4\n*/\n",
            "#define Q 1\n", "struct S { int a; };", "namespace m {", "#if 0\n", "#endif\n", "n=2048", "@@@"]


@pytest.mark.parametrize("seed", range(6))
def test_random_edits_match_a_fresh_parse(seed):
    rng = random.Random(seed)
    document = CudaDocument(rng.choice([DEMO, CONTRACTS]), PATH)
    assert_matches_a_fresh_parse(document)
    for _ in range(25):
        for _ in range(rng.choice([1, 1, 2, 3])):   # sometimes several edits before the model is asked for
            lines = document.text.split("\n")
            line = rng.randrange(len(lines))
            column = rng.randint(0, len(lines[line].encode()))
            end_line = min(len(lines) - 1, line + rng.choice([0, 0, 0, 1, 3]))
            end_column = (min(len(lines[line].encode()), column + rng.choice([0, 0, 1, 4])) if end_line == line
                          else rng.randint(0, len(lines[end_line].encode())))
            document.apply_change(Position(line=line, column=column), Position(line=end_line, column=end_column),
                                  rng.choice(SNIPPETS) if rng.random() < 0.8 else "")
        assert_matches_a_fresh_parse(document)


def test_lines_inserted_above_move_contracts_and_errors():
    document = CudaDocument(CONTRACTS, PATH)
    scale, bump = document.contract("scale"), document.contract("bump")
    broken = outcome(lambda: document.contract("broken"))
    bare = outcome(lambda: document.contract("bare"))

    insert(document, "/* @optiml", "// a header\n// of two lines\n")
    assert document.contract("scale").location == scale.location.model_copy(update={"line": scale.location.line + 2})
    assert document.contract("bump").location.line == bump.location.line + 2
    assert outcome(lambda: document.contract("broken"))[0].line == broken[0].line + 2
    assert outcome(lambda: document.contract("bare"))[0].line == bare[0].line + 2
    assert_matches_a_fresh_parse(document)

    # lines inserted between a kernel's block and the kernel move the signature, not the block
    insert(document, "__global__ void bare", "\n\n\n")
    assert outcome(lambda: document.contract("bare"))[0].line == bare[0].line + 5
    insert(document, "__global__ void scale", "\n")
    assert document.contract("scale").location.line == scale.location.line + 2
    assert_matches_a_fresh_parse(document)


def test_text_before_a_block_on_its_line_moves_its_columns():
    document = CudaDocument(CONTRACTS.replace("/* @optiml", "/*         */ /* @optiml", 1), PATH)
    assert document.contract("scale").location.column == 15
    at = position_of(document.text, "*/ /* @optiml")
    document.apply_change(at, at, "      ")
    assert document.contract("scale").location == Location(file=PATH, line=1, column=21)
    assert_matches_a_fresh_parse(document)


def test_an_edited_contract_is_parsed_again():
    document = CudaDocument(CONTRACTS, PATH)
    assert document.contract("scale").sizes == {"n": 1024}

    at = position_of(document.text, "n=1024", len("n="))
    document.apply_change(at, Position(line=at.line, column=at.column + 4), "2048")
    assert document.contract("scale").sizes == {"n": 2048}

    at = position_of(document.text, "block=256")
    document.apply_change(at, Position(line=at.line, column=at.column + len("block=256")), "block=2048")
    with pytest.raises(OptimlError) as too_big:
        document.contract("scale")
    assert "block.x = 2048" in too_big.value.message
    assert_matches_a_fresh_parse(document)

    insert(document, "x:      in float[m]", "m:      64\n   ")   # still wrong: `m` is no parameter
    assert outcome(lambda: document.contract("broken")) == outcome(
        lambda: parse_contract(document.model.kernel("broken"), PATH))
    at = position_of(document.text, "float[m]", len("float["))
    document.apply_change(at, Position(line=at.line, column=at.column + 1), "n")
    insert(document, "m:      64", "# ")
    assert document.contract("broken").arrays[0].length == "n"
    assert_matches_a_fresh_parse(document)


def test_a_changed_signature_is_checked_again():
    document = CudaDocument(CONTRACTS, PATH)
    assert document.contract("bump").arrays[0].direction == "inout"
    at = position_of(document.text, "void bump(float* x", len("void bump("))
    document.apply_change(at, at, "const ")
    with pytest.raises(OptimlError) as read_only:
        document.contract("bump")
    assert "read only" in read_only.value.message
    assert_matches_a_fresh_parse(document)


def test_contract_of_an_unknown_kernel():
    document = CudaDocument(CONTRACTS, PATH)
    with pytest.raises(OptimlError) as unknown:
        document.contract("scal")
    assert unknown.value.message == "no kernel named 'scal'" and "scale" in unknown.value.expected


# ---------------------------------------------------------------------------------------------------------------
# What is read again


def test_an_edit_in_a_kernel_body_parses_no_other_contract(monkeypatch):
    document = CudaDocument(CONTRACTS, PATH)
    for kernel in document.model.kernels:
        outcome(lambda: document.contract(kernel.name))
    parsed = []
    monkeypatch.setattr(contract_module, "parse_contract",
                        lambda kernel, path: parsed.append(kernel.name) or parse_contract(kernel, path))

    insert(document, "x[0] += 1.0f;", "\n    x[0] *= 2.0f;")   # in bump's body: it moves everything after
    for kernel in document.model.kernels:
        outcome(lambda: document.contract(kernel.name))
    assert parsed == ["broken", "bare"]   # errors that moved lines are made again: their messages may name lines
    assert_matches_a_fresh_parse(document)


def test_parts_an_edit_leaves_alone_are_taken_over():
    document = CudaDocument(DEMO, PATH)
    before = document.model
    at = position_of(document.text, "if (threadIdx.x == 0) out[blockIdx.x]")
    document.apply_change(at, at, "  ")   # in row_sum's body
    after = document.model
    assert after.kernels[0] is before.kernels[0]                 # shape_values, above the edit: as it was
    assert after.kernels[1] is not before.kernels[1]             # row_sum, edited: read again
    assert after.kernels[2].span.start_byte == before.kernels[2].span.start_byte + 2   # copy_vec, below: moved
    assert after.kernels[2].span.start == before.kernels[2].span.start                 # on lines of its own
    assert after == parse_source(document.text, PATH)


def test_compile_units_after_edits_that_move_items():
    document = CudaDocument(DEMO, PATH)
    document.model
    insert(document, "#define BLOCK 256", "#define EXTRA 1\n\n")
    insert(document, "namespace ops {", "// moved\n")
    for kernel, template in [("shape_values", {}), ("copy_vec", {"T": "float"}), ("inner_double", {})]:
        assert document.compile_unit(kernel, template) == CudaDocument(document.text, PATH).compile_unit(kernel,
                                                                                                         template)


def test_the_cache_keeps_recent_results_only(monkeypatch):
    monkeypatch.setattr(ContractCache, "MAX_ENTRIES", 2)
    document = CudaDocument(CONTRACTS, PATH)
    parsed = []
    monkeypatch.setattr(contract_module, "parse_contract",
                        lambda kernel, path: parsed.append(kernel.name) or parse_contract(kernel, path))
    for name in ("scale", "bump", "bump", "broken", "bare", "bare", "scale"):
        outcome(lambda: document.contract(name))
    assert parsed == ["scale", "bump", "broken", "bare", "scale"]   # scale was the oldest of three
