import numpy
import pytest

from optiml_engine.model import Location, OptimlError
from optiml_engine.source.expr import evaluate, parse_expr

WHERE = Location(file="k.cu", line=7, column=20)


@pytest.mark.parametrize("text, env, value", [
    ("1 + 2 * 3", {}, 7),
    ("(1 + 2) * 3", {}, 9),
    ("10 - 4 - 3", {}, 3),                  # left-associative
    ("7 / 2", {}, 3),                        # integers divide as C does
    ("7.0 / 2", {}, 3.5),
    ("7 / 2.0", {}, 3.5),
    ("7 // 2", {}, 3),
    ("7.5 // 2", {}, 3.0),
    ("-7 // 2", {}, -4),                     # // floors
    ("7 % 3", {}, 1),
    ("-n", {"n": 5}, -5),
    ("--n", {"n": 5}, 5),
    ("-n * 2", {"n": 5}, -10),
    ("1e-6", {}, 1e-6),
    ("2.5E3", {}, 2500.0),
    (".5 + 1.", {}, 1.5),
    ("0x10 + 0XfF", {}, 271),
    ("cdiv(rows, 128)", {"rows": 1000}, 8),
    ("cdiv(1024, 128)", {}, 8),
    ("min(3, n, 2)", {"n": 1}, 1),
    ("max(n)", {"n": 4}, 4),
    ("max(rows*cols, 16) / 4", {"rows": 3, "cols": 5}, 4),
])
def test_evaluates(text, env, value):
    result = evaluate(text, env)
    assert result == value
    assert type(result) is type(value)


def test_symbols_are_the_names_used_not_the_functions():
    expr = parse_expr("cdiv(rows*cols, b) + min(k, 2)", WHERE)
    assert expr.symbols() == {"rows", "cols", "b", "k"}
    assert parse_expr("3 * 4", WHERE).symbols() == set()


def test_names_carry_their_columns():
    expr = parse_expr("rows * colz", WHERE)
    assert [(n.name, n.at.column) for n in expr.names()] == [("rows", 20), ("colz", 27)]


def test_str_round_trips_with_minimal_parentheses():
    for text in ["a-(b-c)", "(a+b)*c", "a*b+c", "-(a+b)", "a/(b*c)", "cdiv(n,256)*2", "a-b-c", "a//b%c"]:
        expr = parse_expr(text, WHERE)
        assert str(expr) == text
        env = {"a": 17, "b": 5, "c": 3, "n": 1000}
        assert parse_expr(str(expr), WHERE).evaluate(env) == expr.evaluate(env)


def test_trees_compare_by_structure_not_location():
    assert parse_expr("n + 1", WHERE) == parse_expr("n+1", Location(file="other.cu", line=1))
    assert parse_expr("n + 1", WHERE) != parse_expr("n + 2", WHERE)


def _error(text: str, env: dict | None = None) -> OptimlError:
    with pytest.raises(OptimlError) as info:
        parse_expr(text, WHERE).evaluate(env or {})
    return info.value


@pytest.mark.parametrize("text, offset, fragment", [
    ("n + ", 3, "unexpected end of expression (expected a number, a symbol or '(')"),
    ("(n + 1", 6, "unexpected end of expression (expected ')')"),
    ("n $ 2", 2, "unexpected character '$'"),
    ("n 2", 2, "unexpected '2' (expected an operator or the end of the expression)"),
    ("2 * * n", 4, "unexpected '*'"),
    ("pow(n, 2)", 0, "unknown function 'pow' (expected cdiv, min or max)"),
    ("1 + cdiv(n)", 4, "cdiv takes 2 arguments, got 1"),
    ("min()", 4, "unexpected ')'"),
    ("", 0, "empty expression"),
    ("   ", 0, "empty expression"),
])
def test_syntax_errors_point_at_the_offending_character(text, offset, fragment):
    error = _error(text)
    assert (error.location.file, error.location.line, error.location.column) == ("k.cu", 7, 20 + offset)
    assert fragment in str(error)


def test_unknown_symbol_is_located_and_lists_the_known_ones():
    error = _error("rows * colz", {"rows": 1, "cols": 2})
    assert error.location.column == 27
    assert str(error) == "k.cu:7:27: error: unknown symbol 'colz' (expected one of: rows, cols)"


@pytest.mark.parametrize("text, offset", [("n / 0", 2), ("n % (n - n)", 2), ("n // 0", 2), ("1 + cdiv(n, 0)", 4)])
def test_division_by_zero_points_at_the_operator(text, offset):
    error = _error(text, {"n": 3})
    assert error.location.column == 20 + offset
    assert "division by zero" in error.message


def test_evaluate_without_location_still_raises_a_clear_error():
    with pytest.raises(OptimlError, match="unknown symbol 'm'"):
        evaluate("m + 1", {"n": 1})


def test_other_vocabularies_parse_their_functions_and_call_what_the_environment_provides():
    where = Location(file="k.cu", line=3, column=10)
    tree = parse_expr("scale(x, 2) / y", where, functions=("scale",))
    values = tree.evaluate({"x": numpy.array([1.0, 2.0]), "y": numpy.array([4.0, 8.0]),
                            "scale": lambda a, k: a * k})
    assert list(values) == [0.5, 0.5]
    with pytest.raises(OptimlError) as raised:
        parse_expr("cdiv(x, 2)", where, functions=("scale",))
    assert "unknown function 'cdiv'" in str(raised.value) and "one of: scale" in str(raised.value)


@pytest.mark.parametrize("text, column", [("(" * 5000 + "n" + ")" * 5000, 100), ("+".join(["n"] * 200000), 199),
                                          ("-" * 300 + "n", 100), ("min(" * 300 + "n" + ",1)" * 300, 400)])
def test_an_expression_too_deep_to_evaluate_is_refused_where_it_gets_too_deep(text, column) -> None:
    """5,000 nested parentheses or a 200,000-term sum would exhaust Python's recursion when evaluated or printed:
    a located refusal instead (the CLI printed a RecursionError traceback, the editor's hover its text)."""
    with pytest.raises(OptimlError, match="nested more than 100 levels deep") as error:
        parse_expr(text, Location(file="user.cu", line=3, column=1))
    assert (error.value.location.line, error.value.location.column) == (3, 1 + column)


def test_an_expression_just_under_the_depth_limit_evaluates() -> None:
    text = "(" * 60 + "n" + ")" * 60 + "+" + "+".join(["1"] * 98)
    assert evaluate(text, {"n": 2}) == 100
