"""Rewrites of a kernel's text that keep its meaning and its lines, for a kernel the lifter refused as written
(lift.py): what the C preprocessor, a C++ parser's disambiguation or a reader would make of spellings the lifter does
not take apart itself. Each applies only where the conditions said make it exact; otherwise the text is left alone
and the lifter refuses the kernel as before.

- A declaration of several plain names with values (`int warp = g / 32, lane = g % 32;`), or of several arrays or
  plain names without (`int cy[4], cx[4];`, `int l, m;`), not a loop's header:
  one declaration a name, in order, on its line.
- A `#pragma` line in the kernel's body (`#pragma unroll`), which the parser reads as a statement of its own (between
  a loop's or an `if`'s header and its body, braces left out, as a header with an empty body): the line emptied, a
  hint only.
- Macros: a function-like `#define` of the file called in the kernel (`IDX(i, j, k)`), and an object-like one whose
  value is not a number (`#define TAPS (2 * R + 1)`; numbers the lifter reads itself), replaced by its value with the
  arguments put in for its parameters as the preprocessor does (token by token, no parentheses added), until none is
  left; a macro for a loop's header before its body (`CUDA_KERNEL_LOOP(i, n) { ... }`, which parses as a
  function's definition) likewise. A function-like macro naming itself uncalled (`#define A(i, j) A[(i) + (j) * lda]`, BLAS style) is
  expanded: its own name stays, as in the preprocessor's one expansion. Not macros using `#`, `##` or variadic
  arguments, nor one calling itself or an object-like one naming itself (the preprocessor expands those once; the
  rounds here would expand them again), nor a kernel whose macros still expand after ROUNDS rounds.
- A name in parentheses the parser read as a cast's type (`(i) + x * ld`, as a macro's parenthesized arguments
  expand, parses as a cast of `+x` to a type `i`, which binds tighter than the `*`), where the name is a parameter or
  a local of the kernel and so no type: the name without its parentheses.
- A comparison the parser read as a template argument list (`iy < H && ix >= 0` parses as `iy<H && ix> = 0`, an
  assignment), where the name before `<` is a parameter or a local of the kernel and so no template: the name put in
  parentheses, which leaves only the comparison to read.
- A loop's test with its counter on the right (`n > i`, `n >= i`), a name the loop's update or body assigns and the
  other side does not read: the same test with the counter on the left (`i < n`, `i <= n`). A for loop's `i != n`,
  the counter stepped by one (`++i`, `i++`, `i += 1`; or down) by the update alone: `i < n` (`i > n` down), the same
  loop wherever it ends (from a start past n it would run until its counter overflows, which no kernel that runs
  does). A for loop's update `i += 1` (`i -= 1`): `++i` (`--i`).
- `x = x op e;` and `x = e op x;` for op `+` or `*` (`x = x - e;` too), x a name or an element whose index calls
  nothing and changes nothing: `x op= (e);`, as written out (a for loop's update too).
- A local of an arithmetic type with a braced value, `float acc{0.0f};`: `float acc = 0.0f;`. A pointer declared
  `auto` from a pointer parameter (`const auto row = x + r * cols;`): declared with the parameter's type.
- `static_cast<T>(e)` of an arithmetic type T: the C cast it is, `((T)(e))`. `__ldg(&e)`, a load through the
  read-only data cache: the value it loads, `(e)` (`__ldg(p)`: `(*(p))`). `__umul24(blockIdx.x, blockDim.x)` (the
  CUDA samples' 24-bit multiply, `__mul24` too) of two builtins: their product, `((a) * (b))`, which it is for
  grids of fewer than 2^24 blocks a dimension.
- `e & (2^k - 1)` and `e >> k` (`threadIdx.x & 31`, `(blockIdx.x * blockDim.x + threadIdx.x) >> 5`, `gid & (WARP
  - 1)`: the mask or the shift a constant), e made of the thread's and the block's builtins, literals, `+` and `*`
  and locals declared once from such an e and never assigned: `e % 2^k` and `e / 2^k`, which they are for an e that
  cannot be negative.
- A loop's body with `if (c) continue;` among its own statements (no else), in a loop that indexes a local array
  or a loop over the grid's points (its header reads the block's index): the rest of the body under
  `if (!(c)) { ... }`; `if (c) { ...; continue; }` likewise: the continue dropped, the rest under its `else`; and so
  on in the branch that holds the rest.
- A for loop declaring several counters stepped together (`for (int i = 0, j = n - 1; i < n; ++i, --j)`,
  `for (const float *pa = a, *pb = b; pa != end; ++pa, ++pb)`), the test reading one of them, which steps by one:
  that counter alone, each other one read as its start plus the iterations so far times its step (`(n - 1) - (i -
  (0))`), where the body assigns no counter and no start or step reads a counter or anything the loop assigns.
- The kernel's last statement `if (c) { ... }` (no else) whose block returns early somewhere inside, holds a
  do-while loop or assigns an index declared before it (which the rules below read after a return guard): `if
  (!(c)) return;` and the block's statements after it, where the block declares no name the kernel declared before
  it.
- A `switch` on a value that calls and changes nothing, each group of its labels (`case 0: case 1:`) followed by
  statements that end in `break;` (or `return;`) and hold no other `break` outside their own loops and switches
  (nothing falls through, nothing leaves early), `default` last or absent: the `if` / `else if` chain it is,
  `if (v == 0 || v == 1) { ... } else if ... else { ... }`, the breaks dropped.
- `int i = start; while (i < n) { ...; i += step; }` (a grid-stride loop as users also write it), where `i` is
  declared before the loop in its block (nothing between assigning it, taking its address or assigning what its start
  reads; a statement between reading it, a guard `if (i >= n) return;`, reads its start instead), read nowhere
  after it, updated only by the body's last statement, and the body has no `continue` (which would skip that
  update): the for loop it is, `for (int i = start; i < n; i += step) { ... }`.
- A name assigned again by a statement of its declaration's own block: an index declared from the thread's or the
  block's index and taken apart in place (`int id = ...threadIdx.x; ... id /= w; i = i / h;`, Darknet's), or a
  counter reset for a second while loop (`j = 0; while (j < n) ...`): the
  statement a declaration of a fresh name of the declared type holding the new value (`int i2 = i / w;`, `int id2 =
  id / (h);`), the statements after it reading that name (the old one is dead from there on, and out of scope after
  the block); one value a name, as the lifter reads an index or a loop's counter.
- A for loop counting a name declared before it in its block (`int i; for (i = 0; i < n; ++i)`, or `int i = tid;
  while (...) {...} for (i = tid; ...)`), where the first mention of the name after the loop assigns it without
  reading it, or there is none, and nothing takes its address: the loop's header declares a fresh name of the
  counter's type, which the loop reads (its value after the loop is never read). Likewise a name declared in a block
  around the loop and mentioned nowhere else (`int l, m; for (l = 0; ...) for (m = 0; ...)`), and a loop without an
  initializer going on from the name's value (`int k = 0; if (n % 2) {...; k++;} for (; k < n; k += 2)`, Parboil's
  unrolled loops): `for (int k2 = k; k2 < n; k2 += 2)`.
- `int c = s; do { ... } while (++c < n);`, or `do { ...; c++; } while (c < n);` (no `continue`, `c` assigned nowhere
  else and unread after it): the body runs for c = s first whatever n is, so the for loop `for (int c = s; c <
  max(n, s + 1); ++c)`.
- `if (i >= n) return; ... do { ... } while (i < n);` (either test spelled either way round, the guard's also as
  `!(i < n)`), nothing between the
  guard and the loop assigning what the test reads: the guard makes the first test true, so the while loop `while (i
  < n) { ... }`; the guard dropped where the loop ends the kernel right after it.
- `int n = e; while (n--) { ... }`, n unread in the body and after: `for (int n = 0; n < (e); ++n)`.
- `*p++` once an iteration of a counted loop, as a statement's own (no `if`, loop or choice around it), the pointer
  declared before the loop and mentioned nowhere else in it nor after it: `*(p + (k - (a)))` (`(a) - k` counting
  down).
- A loop walked by a pointer, `for (T* p = b; p != b + n; ++p)` (or `p < b + n`, or an end pointer `T* const e = b +
  n;` declared before and assigned nowhere), or `do { ... } while (++p != e);` (`<` too) with p declared before: a
  counter k from 0 to n (to max(n, 1) for the do-while, which runs once first) and p read as `(b + k)` in the body,
  where the body assigns neither p nor what b reads, and p is unread after the loop (which would see it advanced).
- `a = v op= e;`, an assignment whose value is an assignment to a local: the two statements it is, in a block of
  their own (it may be a loop's body without braces), `{ v op= e; a = v; }`.
- A pointer declared in a counted loop's block and advanced by the last (or the first) statement of its body (`for
  (int r = a; r < b; ++r) { s += *p; p += cols; }`), where the body has no `continue`, nothing else assigns the
  pointer and nothing reads it after the loop: read as where it points at each iteration, `(p + (long long)(r - a) *
  (cols))` (`r - a + 1` after a first statement's advance), the advance dropped. Or declared before a perfect nest of
  two counted loops stepping by one whose inner bounds read neither the outer counter nor the pointer (`for (i = a; i
  < b; ++i) for (j = c; j < d; ++j) { ...; p += s; }`, im2col's column pointer): `(p + ((i - a) * (d - c) + (j - c)) *
  (s))`.
- A local a counted loop's header advances beside its counter (`for (int t = 0; t < T; ++t, idx += D)`), declared
  before the loop, assigned nowhere in its body and unread after it: read as what it holds at each iteration,
  `(idx + (size_t)(t - 0) * (D))` in its own type, the advance dropped from the header.
- A local array filled by the loop right after its declaration from `const` parameters (`float p[DIM]; for (int
  d = 0; d < DIM; ++d) p[d] = x[i * DIM + d];`) and only read after: each read `p[e]` the fill's value at d = e.
- `p += d;` outside any loop of the block declaring the pointer p, nothing after it assigning p or what d reads: p
  read after it as `(p + (d))`, the statement dropped.
- `if (v >= c) break;` among the leading `if (...) continue;` / `break;` checks of a loop counting v up by one (a
  window clipped at an image's edge), c not assigned in the loop: the loop's bound made the lesser of its own and c.
- Row pointers rotated in a loop (`north = centre; centre = south; south += nx;`), declared before it one step
  apart (`centre = north + nx`, `south = centre + nx`): each advanced by the step (`north += nx; ...`), what it holds
  at every point of the body the same.
- A `__device__` helper with loops (or assignments), called as part of a statement of the kernel's own and not in
  the arm of a `?:`, `&&` or `||`, its arguments assigning and calling nothing: its body put before the statement,
  its parameters locals holding the arguments and its names renamed apart, the call read as a local holding its
  returned value, as the compiler inlines it. A `void` helper called as a statement (the CUDA samples'
  `BlackScholesBodyGPU(call[i], put[i], ...)`), its results through references (`float &call`): its body in the
  statement's place, each reference read as its argument (a name, or an element whose index reads no name the
  references pass).
- A pointer declared without a value and set by both arms of the `if` right after it to an offset into one of two
  pointer parameters (`float* x; if (head < H) x = query + a; else x = key + b;`, vLLM's rotary embedding choosing
  the query or the key), then only read as elements (`x[e]`, `*(x + e)`, `*x`; not in another's index, not
  incremented in place) by the statements after that `if` in its block, where nothing after it assigns what the
  condition or the offsets read: each read `((c) ? query[(a) + (e)] : key[(b) + (e)])`, each statement `x[e] op v;`
  the `if (c) query[(a) + (e)] op v; else key[(b) + (e)] op v;` it is (only one arm runs, so v is evaluated once),
  the declaration and the `if` emptied.
- A table declared in the kernel with all its entries (`const int dr[4] = {-1, 1, 0, 0};`, its size a number or a
  name defined as one, or `float wx[4] = {cubic(t + 1.0f), cubic(t), ...};`) and only read: each read `dr[e]` the
  table's entries chosen by e (`e == 0 ? -1 : e == 1 ? 1 : ...`), where e assigns and calls nothing. Entries that
  are not numbers are then computed where read rather than where declared: only where they assign nothing, read no
  memory, call only functions of the file without pointer parameters or math functions, and read no name assigned
  after the declaration (so each computes the same value there).
- A loop of constant bounds (numbers or `#define`s of them, at most WRITTEN_OUT turns, counting up by one) whose
  counter indexes a local array of a constant size (`for (int d = 0; d < HEAD_DIM; ++d) acc[d] = 0.0f;`), its
  counter assigned nowhere in its body and read nowhere after it, its body without `break`, `continue`, `return`,
  comments or preprocessor lines but `#pragma unroll`: written out, the body once a turn in braces of its own with
  the counter a number, on the loop's first line (the compiler's full unrolling).
- A local array of a constant size used only through subscripts that are constants in its bounds once such loops
  are written out (`acc[(5)]`, `m[2]`), not `__shared__` nor `static`: a local per element (`T acc_0, acc_1, ...;`,
  with the initializer's entries and zeros after them where it has one), each subscript its element's local. A
  nest of such loops is written out only while all its turns together stay within WRITTEN_OUT. The kernel's integer
  template parameters, as the unit instantiates them, are constants here as `#define`s are.
- A `__shared__` array of two or more dimensions whose first subscript is everywhere a constant or a counter of a
  loop of constant bounds (`__shared__ float sh[CPG + 1][NT];`, a few block sums stacked): its loops written out as
  above, then one `__shared__` array a row (`sh_2[tid]`).
- A block in braces that is a statement of another block and declares nothing (what writing a loop out leaves): its
  statements in its place. `T x;` followed in its block by `x = e;`, the first statement to mention x: `T x = e;`.
- `T v = (p);`, p a local of the same type never mentioned after it and no loop around the copy (an inlined helper's
  parameter, or its returned value's local): v read as p, the copy dropped. `T* q = (a);`, a a `__shared__` array
  or a pointer parameter, neither ever assigned (an inlined helper's array parameter): q read as a.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass

from tree_sitter import Node

from optiml_engine.ir.program import fresh_name
from optiml_engine.model import Candidate
from optiml_engine.ir.kernel_values import (
    PURE_FUNCTIONS, file_constants, file_macros, inside, integer_value, macro_value, macros_expanded, siblings)
from optiml_engine.policies.kernel_view import KernelView, bare, derived, unparenthesized
from optiml_engine.policies.rules.tiling_shapes import declared_names

ROUNDS = 32         # rounds of rewrites: macros expanding into macros, one advanced pointer's loop a round
_NUMBER = re.compile(r"[-+]?(0[xX][0-9a-fA-F]+|[0-9.]+([eE][-+]?[0-9]+)?)[uUlLfF]*")
_TOKEN = re.compile(r"[A-Za-z_]\w*")
_BUILTIN_FIELD = re.compile(r"(?:blockIdx|blockDim|threadIdx|gridDim)\.[xyz]")
_NAME = re.compile(r"(?<![\w.])(?<!->)[A-Za-z_]\w*")     # a token not a member's (`.x`) nor a number's suffix


def respelled(candidate: Candidate) -> Candidate:
    """The candidate with the rewrites of the module's docstring made, one kind a round, where they apply; the
    candidate itself when none applies, when its macros still expand after ROUNDS rounds, or when a rewrite leaves
    a text in which the parser no longer finds the kernel (a rewrite's own fault: refused, not guessed)."""
    written = candidate
    for _ in range(ROUNDS):
        try:
            view = KernelView.of(candidate)
        except KeyError:
            return written
        replacements = _pragmas(view) or _expansions(view) or _comparisons(view) or \
            _casts_to_variables(view) or _canonical_tests(view) or _compound_assignments(view) or \
            _switches(view) or _plain_calls(view) or _bit_arithmetic(view) or _modern_declarations(view) or \
            _expression_lambdas(view) or \
            _range_loops(view) or _guards_hoisted(view) or _paired_counters(view) or \
            _leading_continues(view) or _while_loops(view) or \
            _reassigned_names(view) or _outer_counters(view) or _do_whiles(view) or _guarded_do_whiles(view) or \
            _decrementing_whiles(view) or _post_increments(view) or _pointer_loops(view) or _chained(view) or \
            _copied_through(view) or _last_copies(view) or _dynamic_shared_carved(view) or _array_aliases(view) or \
            _vector_locals(view) or \
            _rotated_pointers(view) or \
            _advanced_pointers(view) or _header_advances(view) or _constant_tables(view) or _bounding_breaks(view) or \
            _bumped_pointers(view) or _cached_reads(view) or _helper_early_returns(view) or _helpers_called(view) or \
            _chosen_pointers(view) or \
            _array_loops_written_out(view) or _local_arrays_scalarized(view) or _shared_rows_split(view) or \
            _declarations_split(view) or _bare_blocks_flattened(view) or _values_declared(view)
        if not replacements:
            return candidate
        candidate = derived(candidate, view.replaced(replacements), candidate.description)
    return written


def _in_place(view: KernelView, start: int, end: int, text: str) -> tuple[int, int, str]:
    """A replacement of the bytes [start, end) by `text` and the newlines they held, so that lines stay where they
    were."""
    return start, end, text + "\n" * view.source[start:end].count(b"\n")


def _macros(view: KernelView) -> tuple[dict[str, tuple[list[str], str]], dict[str, str]]:
    """The file's function-like macros (name -> parameters, value) and object-like ones whose value is not a number
    (name -> value), each as the preprocessor would expand it (the module's docstring says which)."""
    functions: dict[str, tuple[list[str], str]] = {}
    objects: dict[str, str] = {}
    for node in view.descendants(view.document.tree.root_node, "preproc_def", "preproc_function_def"):
        value_node = node.child_by_field_name("value")
        if value_node is None:
            continue
        name, value = view.text(node.child_by_field_name("name")), macro_value(view, node)
        if "#" in value:
            continue
        if node.type == "preproc_def":
            if name in _TOKEN.findall(value):
                continue
            if not _NUMBER.fullmatch(value):
                objects[name] = value
            continue
        parameters = [view.text(p) for p in node.child_by_field_name("parameters").named_children]
        if all(_TOKEN.fullmatch(p) for p in parameters) and not re.search(rf"\b{name}\s*\(", value):
            functions[name] = (parameters, value)
    return functions, objects


def _pragmas(view: KernelView) -> list[tuple[int, int, str]]:
    """Each `#pragma` line in the kernel's body emptied (its newline kept): a hint to the compiler, which the parser
    reads as a statement of its own (between a loop's header and its body, braces left out, it reads as the header's
    empty body and the body as the next statement; before a grid-stride loop, as a statement the loop follows)."""
    return [_in_place(view, pragma.start_byte, pragma.end_byte, "")
            for pragma in view.descendants(view.body, "preproc_call") if view.text(pragma).split()[:1] == ["#pragma"]]


def _expansions(view: KernelView) -> list[tuple[int, int, str]]:
    """The outermost macro uses in the kernel, each replaced by its expansion (and the newlines it spanned, so that
    lines stay where they were)."""
    functions, objects = _macros(view)
    if not functions and not objects:
        return []
    found: list[tuple[int, int, str]] = []
    for node in view.descendants(view.body, "call_expression", "identifier", "function_definition"):
        if any(start <= node.start_byte < end for start, end, _ in found):
            continue
        # A macro for a loop's header before its body (`CUDA_KERNEL_LOOP(i, n) { ... }`) parses as a function's
        # definition: its header is the use.
        use = node.child_by_field_name("declarator") if node.type == "function_definition" else node
        expansion = _expansion(view, use, functions, objects) if use is not None else None
        if expansion is not None:
            found.append(_in_place(view, node.start_byte, use.end_byte, expansion))
    return found


def _expansion(view: KernelView, node: Node, functions: dict[str, tuple[list[str], str]],
               objects: dict[str, str]) -> str | None:
    if node.type == "identifier":
        return objects.get(view.text(node))
    if node.type not in ("call_expression", "function_declarator"):
        return None
    function = node.child_by_field_name("function" if node.type == "call_expression" else "declarator")
    if function.type != "identifier" or view.text(function) not in functions:
        return None
    parameters, value = functions[view.text(function)]
    listed = node.child_by_field_name("arguments" if node.type == "call_expression" else "parameters")
    arguments = [view.text(a).strip() for a in listed.named_children if a.type != "comment"]
    if len(arguments) != len(parameters):
        return None
    bound = dict(zip(parameters, arguments))
    return _TOKEN.sub(lambda m: bound.get(m.group(0), m.group(0)), value)


def _variables(view: KernelView) -> set[str]:
    """The names of the kernel's parameters and locals."""
    variables = {p.name for p in view.kernel.params}
    for declarator in view.descendants(view.body, "init_declarator", "declaration"):
        target = declarator.child_by_field_name("declarator")
        while target is not None and target.type not in ("identifier",):
            target = target.child_by_field_name("declarator")
        if target is not None:
            variables.add(view.text(target))
    return variables


def _comparisons(view: KernelView) -> list[tuple[int, int, str]]:
    """The names of the kernel's parameters and locals that the parser took for templates, parenthesized."""
    variables = _variables(view)
    found = []
    for node in view.descendants(view.body, "template_function"):
        name = node.child_by_field_name("name")
        if name is not None and view.text(name) in variables:
            found.append((name.start_byte, name.end_byte, f"({view.text(name)})"))
    return found


def _casts_to_variables(view: KernelView) -> list[tuple[int, int, str]]:
    """The names of the kernel's parameters and locals that the parser took for a cast's type (`(i) + x * ld`, a
    cast of `+x` to a type `i`), without their parentheses."""
    variables = _variables(view)
    found = []
    for node in view.descendants(view.body, "cast_expression"):
        written = node.child_by_field_name("type")
        closing = written.next_sibling
        if view.text(written) in variables and closing is not None and closing.type == ")":
            found.append((node.start_byte, closing.end_byte, view.text(written)))
    return found


_FLIPPED = {">": "<", ">=": "<=", "<": ">", "<=": ">="}
_PRIMARY = ("identifier", "number_literal", "subscript_expression", "call_expression", "field_expression",
            "parenthesized_expression")


def _canonical_tests(view: KernelView) -> list[tuple[int, int, str]]:
    """Each loop's test with its counter put on the left, and a for loop's `!=` against a counter stepped by one
    made the ordered test it is (the module's docstring)."""
    found: list[tuple[int, int, str]] = []
    for loop in view.descendants(view.body, "for_statement", "while_statement"):
        condition = loop.child_by_field_name("condition")
        if loop.type == "while_statement":
            condition = condition.child_by_field_name("value") if condition is not None else None
        if condition is None or condition.type != "binary_expression":
            continue
        operator = view.text(condition.child_by_field_name("operator"))
        left, right = condition.child_by_field_name("left"), condition.child_by_field_name("right")
        update = loop.child_by_field_name("update") if loop.type == "for_statement" else None
        steps = [n for part in (update, loop.child_by_field_name("body")) if part is not None
                 for n in view.descendants(part)]
        if operator in _FLIPPED and right.type == "identifier" and \
                any(assigns(view, n, view.text(right)) for n in steps) and \
                not any(assigns(view, n, view.text(name)) for name in view.descendants(left, "identifier")
                        for n in steps) and \
                view.text(right) not in {view.text(n) for n in view.descendants(left, "identifier")}:
            found.append((condition.start_byte, condition.end_byte,
                          f"{view.text(right)} {_FLIPPED[operator]} {view.text(left)}"))
        elif operator == "!=" and update is not None:
            for counter, bound in ((left, right), (right, left)):
                step = _unit_step(view, update, view.text(counter)) if counter.type == "identifier" else None
                if step is not None and view.text(counter) not in \
                        {view.text(n) for n in view.descendants(bound, "identifier")} and \
                        not any(assigns(view, n, view.text(counter))
                                for n in view.descendants(loop.child_by_field_name("body"))):
                    found.append((condition.start_byte, condition.end_byte,
                                  f"{view.text(counter)} {'<' if step > 0 else '>'} {view.text(bound)}"))
                    break
        counter = update.child_by_field_name("left") if update is not None and \
            update.type == "assignment_expression" else None
        step = _unit_step(view, update, view.text(counter)) if counter is not None and \
            counter.type == "identifier" else None
        if step is not None:                # `i += 1`: the `++i` the loop rules read
            found.append((update.start_byte, update.end_byte, f"{'++' if step > 0 else '--'}{view.text(counter)}"))
    return found


def _unit_step(view: KernelView, update: Node, counter: str) -> int | None:
    """+1 or -1 where a for loop's update steps the counter by one (`++i`, `i++`, `i += 1`, `--i`, ...) and does
    nothing else; None otherwise."""
    written = view.text(update).replace(" ", "")
    return {f"++{counter}": 1, f"{counter}++": 1, f"{counter}+=1": 1,
            f"--{counter}": -1, f"{counter}--": -1, f"{counter}-=1": -1}.get(written)


def _compound_assignments(view: KernelView) -> list[tuple[int, int, str]]:
    """`x = x op e` (and `x = e op x` for a commutative op) as `x op= (e)` (the module's docstring)."""
    found: list[tuple[int, int, str]] = []
    for node in view.descendants(view.body, "assignment_expression"):
        parent = node.parent
        if view.text(node.child_by_field_name("operator")) != "=" or parent is None or not (
                parent.type == "expression_statement" or
                parent.type == "for_statement" and parent.child_by_field_name("update") == node):
            continue
        target, value = node.child_by_field_name("left"), node.child_by_field_name("right")
        if target.type not in ("identifier", "subscript_expression") or value.type != "binary_expression" or \
                any(n.type in ("call_expression", "update_expression", "assignment_expression")
                    for n in view.descendants(target)):
            continue
        operator = view.text(value.child_by_field_name("operator"))
        written = view.text(target).replace(" ", "")
        first, second = value.child_by_field_name("left"), value.child_by_field_name("right")
        for mine, other in ((first, second), (second, first)) if operator in ("+", "*") else ((first, second),):
            if operator in ("+", "-", "*") and view.text(mine).replace(" ", "") == written:
                while other.type == "parenthesized_expression" and other.named_children[0].type in _PRIMARY:
                    other = other.named_children[0]
                value = view.text(other) if other.type in _PRIMARY else f"({view.text(other)})"
                found.append((node.start_byte, node.end_byte, f"{view.text(target)} {operator}= {value}"))
                break
    return found


_ARITHMETIC = re.compile(r"(const\s+)?(unsigned\s+|signed\s+)?(char|short|int|long|long\s+long|float|double|size_t|"
                         r"ptrdiff_t|u?int(8|16|32|64)_t|bool)")


def _plain_calls(view: KernelView) -> list[tuple[int, int, str]]:
    """Each `static_cast<T>(e)` of an arithmetic type T as `((T)(e))`; each `__ldg(&e)` (a load through the
    read-only data cache, the same value) as `(e)`, and `__ldg(p)` as `(*(p))`; `__umul24(a, b)` and `__mul24(a,
    b)` of the thread's and the block's builtins (`blockIdx.x`, `blockDim.x`) as `((a) * (b))`, their product while
    each is below 2^24 (the block a thread at most 1024, a grid's blocks along a dimension below 16777216)."""
    found: list[tuple[int, int, str]] = []
    for call in view.descendants(view.body, "call_expression"):
        if any(start <= call.start_byte < end for start, end, _ in found):
            continue                    # inside one made already (parents come first): its turn is the next round
        function, arguments = call.child_by_field_name("function"), call.child_by_field_name("arguments")
        argument = arguments.named_children[0] if arguments.named_children else None
        if argument is None:
            continue
        if view.text(function) == "__ldg" and len(arguments.named_children) == 1:
            address = bare(argument)
            found.append((call.start_byte, call.end_byte, f"({view.text(address.child_by_field_name('argument'))})"
                          if address.type == "pointer_expression" and
                          address.child_by_field_name("operator").type == "&" else f"(*({view.text(argument)}))"))
        elif view.text(function) in ("__umul24", "__mul24") and len(arguments.named_children) == 2 and all(
                _BUILTIN_FIELD.fullmatch(view.text(a).replace(" ", "")) for a in arguments.named_children):
            found.append((call.start_byte, call.end_byte, "(({}) * ({}))".format(
                *(view.text(a) for a in arguments.named_children))))
        elif function.type == "template_function" and len(arguments.named_children) == 1 and \
                view.text(function.child_by_field_name("name")) == "static_cast" and \
                _ARITHMETIC.fullmatch(written := view.text(function.child_by_field_name("arguments")).strip("<> ")):
            found.append((call.start_byte, call.end_byte, f"(({written})({view.text(argument)}))"))
    return found


_OF_BUILTINS = re.compile(r"(?:\s|[()+*]|\d+[uU]?|(?:blockIdx|blockDim|threadIdx|gridDim)\.[xyz])+")


def _bit_arithmetic(view: KernelView) -> list[tuple[int, int, str]]:
    """Each `e & (2^k - 1)` as `e % 2^k` and `e >> k` as `e / 2^k`, e of builtins (the module's docstring)."""
    declared = {}
    for declaration in view.descendants(view.body, "declaration"):
        for declarator in declaration.children_by_field_name("declarator"):
            if declarator.type == "init_declarator" and \
                    declarator.child_by_field_name("declarator").type == "identifier":
                name = view.text(declarator.child_by_field_name("declarator"))
                declared[name] = None if name in declared else view.text(declarator.child_by_field_name("value"))
    assigned = {name for name in declared if any(assigns(view, node, name) for node in view.descendants(
        view.body, "assignment_expression", "update_expression"))}

    plain = {name: value for name, value in declared.items()
             if name not in assigned and value is not None and _OF_BUILTINS.fullmatch(value)}

    def of_builtins(text: str) -> bool:
        """Whether the text is made of builtins, literals, `+` and `*`, with such locals put in for their names."""
        return bool(_OF_BUILTINS.fullmatch(re.sub(r"(?<![.\w])[A-Za-z_]\w*", lambda name: f"({plain[name[0]]})"
                                                  if name[0] in plain else name[0], text)))

    found: list[tuple[int, int, str]] = []
    for node in view.descendants(view.body, "binary_expression"):
        operator, left, right = (view.text(node.child_by_field_name("operator")), node.child_by_field_name("left"),
                                 node.child_by_field_name("right"))
        if operator not in ("&", ">>") or not of_builtins(view.text(bare(left))) or \
                (value := constant_value(view, re.sub(r"\b(\d+)[uU]\b", r"\1", view.text(right)))) is None or \
                any(start <= node.start_byte < end for start, end, _ in found):
            continue
        # Parentheses only where an operator beside could take an operand of the new one (`x + (t & 31)` is not
        # `x + t % 32`): the readings below (lift's block split) take `lane = threadIdx.x % 32` as written so.
        operand = view.text(left) if left.type in ("identifier", "field_expression", "parenthesized_expression") \
            else f"({view.text(left)})"
        alone = node.parent.type not in ("binary_expression", "unary_expression", "cast_expression",
                                         "pointer_expression", "update_expression", "field_expression")
        if operator == "&" and value > 0 and value & (value + 1) == 0:
            text = f"{operand} % {value + 1}"
        elif operator == ">>" and 0 < value < 31:
            text = f"{operand} / {1 << value}"
        else:
            continue
        found.append((node.start_byte, node.end_byte, text if alone else f"({text})"))
    return found


def _modern_declarations(view: KernelView) -> list[tuple[int, int, str]]:
    """Each local declared the modern C++ way where the plain way means the same: a braced value of an arithmetic
    type, `float acc{0.0f};`, as `float acc = 0.0f;` (braces forbid narrowing, so the value is the same); a pointer
    declared `auto` from a pointer parameter, `const auto row = x + r * cols;`, with the parameter's type, `const
    float* row = x + r * cols;` (what `auto` deduces; a `const` the pointer itself had never matters to a name nothing
    assigns, which the compiler checked); and an integer declared `auto` from thread and block indices and sizes
    alone, `const auto c = blockIdx.x;`, as the `unsigned int` they are."""
    pointers = {param.name: " ".join(param.type_text.replace("__restrict__", "").split())
                for param in view.kernel.params if param.is_pointer}
    found = []
    for declaration in view.descendants(view.body, "declaration"):
        declarators = declaration.children_by_field_name("declarator")
        kind = view.text(declaration.child_by_field_name("type"))
        if len(declarators) != 1 or declarators[0].type != "init_declarator" or \
                declarators[0].child_by_field_name("declarator").type != "identifier":
            continue
        name = view.text(declarators[0].child_by_field_name("declarator"))
        value = declarators[0].child_by_field_name("value")
        written = view.text(declaration)[:declaration.child_by_field_name("type").end_byte - declaration.start_byte]
        if value.type == "initializer_list" and len(value.named_children) == 1 and \
                _ARITHMETIC.fullmatch(" ".join(written.split())):
            found.append(_in_place(view, declaration.start_byte, declaration.end_byte,
                                   f"{written} {name} = {view.text(value.named_children[0])};"))
        elif kind == "auto" and value.type != "initializer_list":
            base = bare(value)
            if base.type == "binary_expression" and view.text(base.child_by_field_name("operator")) in "+-":
                base = bare(base.child_by_field_name("left"))
            if base.type == "identifier" and view.text(base) in pointers:
                found.append(_in_place(view, declaration.start_byte, declaration.end_byte,
                                       f"{pointers[view.text(base)]} {name} = {view.text(value)};"))
            elif _BUILTIN_ARITHMETIC.fullmatch(re.sub(r"\s+", "", view.text(value))):
                # Thread and block indices and sizes, and unsigned literals, alone: an `unsigned int`.
                found.append(_in_place(view, declaration.start_byte, declaration.end_byte,
                                       f"{written.replace('auto', 'unsigned int')} {name} = {view.text(value)};"))
    return found


_BUILTIN = r"(?:threadIdx|blockIdx|blockDim|gridDim)\.[xyz]|\d+[uU]"
_BUILTIN_ARITHMETIC = re.compile(rf"\(*(?:{_BUILTIN})\)*(?:[-+*/%]\(*(?:{_BUILTIN})\)*)*")


def _expression_lambdas(view: KernelView) -> list[tuple[int, int, str]]:
    """The first lambda declared in the kernel whose body is one `return e;` (`auto at = [&](int r, int c) { return
    src[r * W + c]; };`, its parameters plain), where every name e reads besides the parameters is declared at most
    once in the kernel and, for a capture by value, assigned nowhere after the lambda: each call `at(a, b)` its
    value, e with each parameter the argument converted to the parameter's type, and the declaration emptied. (A
    capture by reference reads the names when the lambda runs, which the call's place does; one by value reads them
    where it is declared, the same where nothing assigns them after.)"""
    for declaration in view.descendants(view.body, "declaration"):
        declarators = declaration.children_by_field_name("declarator")
        value = declarators[0].child_by_field_name("value") if len(declarators) == 1 and \
            declarators[0].type == "init_declarator" else None
        if value is None or value.type != "lambda_expression":
            continue
        body = value.child_by_field_name("body")
        statements = [n for n in body.named_children if n.type != "comment"]
        declarator = value.child_by_field_name("declarator")
        parameters = declarator.child_by_field_name("parameters") if declarator is not None else None
        # Captures of the kernel's names as they are (`[&]`, `[=]`, `[x, &y]`; not `[s = x]`, whose names are the
        # lambda's own), and no return type (one would convert the value) or `mutable` after the parameters.
        if len(statements) != 1 or statements[0].type != "return_statement" or not statements[0].named_children or \
                parameters is None or len(declarator.named_children) != 1 or \
                any(c.type == "lambda_capture_initializer" for c in value.child_by_field_name("captures").children):
            continue
        typed = [(view.text(p.child_by_field_name("type")), p.child_by_field_name("declarator"))
                 for p in parameters.named_children if p.type == "parameter_declaration"]
        if len(typed) != len([p for p in parameters.named_children if p.type != "comment"]) or \
                any(d is None or d.type != "identifier" for _, d in typed):
            continue
        names = [view.text(d) for _, d in typed]
        result = statements[0].named_children[0]
        read = {view.text(n) for n in view.descendants(result, "identifier")} - set(names)
        by_value = "=" in view.text(value.child_by_field_name("captures"))
        later = [n for n in view.descendants(view.body) if n.start_byte >= declaration.end_byte]
        if any(_declarations_of(view, name) > 1 for name in read) or \
                by_value and any(assigns(view, n, name) for n in later for name in read):
            continue
        name = view.text(declarators[0].child_by_field_name("declarator"))
        calls = [n for n in later if n.type == "call_expression" and view.text(n.child_by_field_name("function"))
                 == name]
        mentions = [n for n in later if n.type == "identifier" and view.text(n) == name]
        if len(calls) != len(mentions) or any(a.start_byte < b.start_byte and b.end_byte <= a.end_byte
                                              for a in calls for b in calls if a is not b):
            continue        # used other than called, or called in another call's arguments
        replacements = [_in_place(view, declaration.start_byte, declaration.end_byte, "")]
        for call in calls:
            arguments = [a for a in call.child_by_field_name("arguments").named_children if a.type != "comment"]
            if len(arguments) != len(typed):
                break
            values = {parameter: f"(({ctype})({view.text(argument)}))"
                      for (ctype, _), parameter, argument in zip(typed, names, arguments)}
            replacements.append((call.start_byte, call.end_byte,
                                 f"({_TOKEN.sub(lambda m: values.get(m.group(0), m.group(0)), view.text(result))})"))
        else:
            return replacements
    return []


def _range_loops(view: KernelView) -> list[tuple[int, int, str]]:
    """Each `for (const auto w : g) body` over a local array of a constant size (`float g[3];`): the counted loop
    over its places, `for (int i = 0; i < 3; ++i) { const float w = g[i]; body }` (a copy of each element, or a
    reference to it where the loop declares `&w`)."""
    arrays = {}         # name -> (element type, size) of the kernel's local arrays of a constant size
    for declaration in view.descendants(view.body, "declaration"):
        target = declaration.child_by_field_name("declarator")
        target = target.child_by_field_name("declarator") if target is not None and \
            target.type == "init_declarator" else target
        extent = target.child_by_field_name("size") if target is not None and target.type == "array_declarator" \
            else None
        if extent is not None and target.child_by_field_name("declarator").type == "identifier" and \
                len(declaration.children_by_field_name("declarator")) == 1 and \
                (size := constant_value(view, view.text(extent))) is not None:
            name = view.text(target.child_by_field_name("declarator"))
            if _declarations_of(view, name) == 1:
                arrays[name] = (view.text(declaration.child_by_field_name("type")), size)
    taken = {view.text(n) for n in view.descendants(view.body, "identifier")}
    found = []
    for loop in view.descendants(view.body, "for_range_loop"):
        over, declarator = loop.child_by_field_name("right"), loop.child_by_field_name("declarator")
        if over is None or over.type != "identifier" or view.text(over) not in arrays or declarator is None:
            continue
        array, (element, size) = view.text(over), arrays[view.text(over)]
        reference = declarator.type == "reference_declarator"
        target = declarator.named_children[-1] if reference else declarator
        if target.type != "identifier":
            continue
        qualifier = "const " if any(c.type == "type_qualifier" and view.text(c) == "const" for c in loop.children) \
            else ""
        counter = fresh_name("i", taken)
        body = loop.child_by_field_name("body")
        found.append(_in_place(view, loop.start_byte, loop.end_byte,
                               f"for (int {counter} = 0; {counter} < {size}; ++{counter}) {{ {qualifier}{element}"
                               f"{'&' if reference else ''} {view.text(target)} = {array}[{counter}]; "
                               f"{view.text(body)} }}"))
    return found


def _guards_hoisted(view: KernelView) -> list[tuple[int, int, str]]:
    """The kernel's last statement, a guard around the rest of the kernel that returns inside, holds a do-while loop
    or assigns an index declared before it (taken apart in place), as a return first (the module's docstring)."""
    statements = [n for n in view.body.named_children if n.type != "comment"]
    guard = statements[-1] if statements else None
    if guard is None or guard.type != "if_statement" or guard.child_by_field_name("alternative") is not None:
        return []
    block = guard.child_by_field_name("consequence")
    derived = _index_derived(view, guard)
    if block.type != "compound_statement" or not any(True for _ in view.descendants(block, "return_statement")) and \
            not any(statement.type == "do_statement" or any(assigns(view, n, name) for name in derived
                                                             for n in view.descendants(statement))
                    for statement in block.named_children):
        return []
    named_before = {view.text(n) for statement in statements[:-1] for n in view.descendants(statement, "identifier")}
    declared_inside = {view.text(d.child_by_field_name("declarator")).lstrip("*& ")
                       for statement in block.named_children if statement.type == "declaration"
                       for d in statement.named_children if d.type == "init_declarator"}
    if declared_inside & named_before:
        return []
    condition = guard.child_by_field_name("condition").child_by_field_name("value")
    inner = view.source[block.start_byte + 1:block.end_byte - 1].decode()
    return [_in_place(view, guard.start_byte, guard.end_byte,
                      f"if (!({view.text(condition)})) return; {inner}")]


def _leading_continues(view: KernelView) -> list[tuple[int, int, str]]:
    """A loop body's first `if (c) continue;` or `if (c) { ...; continue; }` of its own statements (or of the
    branches of the `if` it ends with, and so on) with the rest of the body moved into its else (the module's
    docstring), for the loops that index a local array (written out then, which a `continue` forbids) and the loops
    over the grid's points (a point's code skipped)."""
    arrays = _local_arrays(view)
    for loop in view.descendants(view.body, "for_statement", "while_statement"):
        header = loop.child_by_field_name("initializer") or loop.child_by_field_name("condition")
        if not any(view.text(n) in arrays for n in view.descendants(loop.child_by_field_name("body"), "identifier")) \
                and not any(view.text(n) == "blockIdx" for n in view.descendants(header, "identifier")):
            continue
        blocks = [loop.child_by_field_name("body")]    # the body, and the branches of an `if` that ends a block
        while blocks:
            block = blocks.pop(0)
            if block.type != "compound_statement":
                continue
            statements = [n for n in block.named_children if n.type != "comment"]
            skip = next((n for n in statements[:-1] if n.type == "if_statement" and
                         n.child_by_field_name("alternative") is None and
                         _last_statement(n.child_by_field_name("consequence")).type == "continue_statement"), None)
            if skip is not None:
                after = statements[statements.index(skip) + 1:]
                rest = view.source[after[0].start_byte:after[-1].end_byte].decode()
                consequence = skip.child_by_field_name("consequence")
                if consequence.type == "continue_statement" or view.text(consequence).strip("{}; \n") == "continue":
                    condition = skip.child_by_field_name("condition").child_by_field_name("value")
                    return [_in_place(view, skip.start_byte, statements[-1].end_byte,
                                      f"if (!({view.text(condition)})) {{ {rest} }}")]
                jump = _last_statement(consequence)
                return [_in_place(view, jump.start_byte, jump.end_byte, ""),
                        _in_place(view, skip.end_byte, statements[-1].end_byte, f" else {{ {rest} }}")]
            last = statements[-1] if statements else None
            if last is not None and last.type == "if_statement":
                alternative = last.child_by_field_name("alternative")
                blocks += [last.child_by_field_name("consequence"),
                           *(alternative.named_children[-1:] if alternative is not None else [])]
    return []


def _last_statement(node: Node) -> Node:
    """The block's last statement (comments aside), or the statement itself where it is no block."""
    while node.type == "compound_statement":
        statements = [n for n in node.named_children if n.type != "comment"]
        if not statements:
            return node
        node = statements[-1]
    return node


def _paired_counters(view: KernelView) -> list[tuple[int, int, str]]:
    """Each for loop stepping several counters together (the module's docstring) as a loop over the one its test
    reads."""
    for loop in view.descendants(view.body, "for_statement"):
        init, condition, update, body = (loop.child_by_field_name(f)
                                         for f in ("initializer", "condition", "update", "body"))
        declarators = [d for d in init.named_children if d.type == "init_declarator"] \
            if init is not None and init.type == "declaration" else []
        if len(declarators) < 2 or condition is None or update is None:
            continue
        names = [view.text(d.child_by_field_name("declarator")).lstrip("*& ") for d in declarators]
        steps: dict[str, tuple[str, str]] = {}          # counter -> (sign, step)
        parts, stack = [], [update]
        while stack:
            node = stack.pop()
            if node.type == "comma_expression":
                stack += [node.child_by_field_name("right"), node.child_by_field_name("left")]
            else:
                parts.append(node)
        for part in parts:
            written = view.text(part).replace(" ", "")
            for name in names:
                for form, step in ((f"++{name}", ("+", "1")), (f"{name}++", ("+", "1")),
                                   (f"--{name}", ("-", "1")), (f"{name}--", ("-", "1"))):
                    if written == form:
                        steps[name] = step
                if part.type == "assignment_expression" and view.text(part.child_by_field_name("left")) == name and \
                        view.text(part.child_by_field_name("operator")) in ("+=", "-="):
                    steps[name] = (view.text(part.child_by_field_name("operator"))[0],
                                   view.text(part.child_by_field_name("right")))
        starts = {name: view.text(d.child_by_field_name("value")) for name, d in zip(names, declarators)
                  if d.child_by_field_name("value") is not None}
        assigned = {view.text(n.child_by_field_name("argument" if n.type == "update_expression" else "left"))
                    for n in view.descendants(body, "update_expression", "assignment_expression")}
        if len(starts) != len(names) or len(parts) != len(steps) or set(names) & assigned:
            continue
        # A name the update does not step is a bound of the loop (`stop = j + pool`): its start, read through the
        # stepped counters' starts.
        stepped = [name for name in names if name in steps]
        fixed = {name: _read_through(starts[name], {c: starts[c] for c in stepped})
                 for name in names if name not in steps}
        tested = [name for name in stepped if name in {view.text(n) for n in view.descendants(condition, "identifier")}]
        if len(tested) != 1 or steps[tested[0]][1] != "1" or \
                any(set(_TOKEN.findall(text)) & (set(names) | assigned)
                    for text in [*(starts[name] for name in stepped), *(steps[name][1] for name in stepped),
                                 *fixed.values()]):
            continue
        primary = tested[0]
        sign, _ = steps[primary]
        pointer = declarators[names.index(primary)].child_by_field_name("declarator").type == "pointer_declarator"
        test = bare(condition)
        extent = _pointer_extent(view, loop, primary, starts[primary], bare(test.child_by_field_name("right"))) \
            if pointer and sign == "+" and test.type == "binary_expression" and \
            test.child_by_field_name("operator").type in ("!=", "<") and \
            view.text(test.child_by_field_name("left")) == primary else None
        if pointer and extent is None:
            continue
        if pointer:     # a pointer's steps counted by an integer: every counter its start plus the steps so far
            taken = {view.text(n) for n in view.descendants(view.body, "identifier")}
            iterations = fresh_name(f"{primary}_step", taken)
            header = f"for (long long {iterations} = 0; {iterations} < (long long)({extent}); ++{iterations}) "
            moved = stepped
        else:
            iterations = f"({primary} - ({starts[primary]}))" if sign == "+" else f"(({starts[primary]}) - {primary})"
            kept = declarators[names.index(primary)]
            qualifiers = "".join(view.text(c) + " " for c in init.children if c.type == "type_qualifier")
            header = (f"for ({qualifiers}{view.text(init.child_by_field_name('type'))} {view.text(kept)}; "
                      f"{_read_through(view.text(condition), fixed)}; {'++' if sign == '+' else '--'}{primary}) ")
            moved = [name for name in stepped if name != primary]
        values = {name: f"(({starts[name]}) {steps[name][0]} {iterations} * ({steps[name][1]}))" for name in moved}
        values |= {name: f"({value})" for name, value in fixed.items()}
        found = [(n.start_byte, n.end_byte, values[view.text(n)])
                 for n in view.descendants(body, "identifier") if view.text(n) in values]
        found.append(_in_place(view, loop.start_byte, body.start_byte, header))
        return found
    return []


def _read_through(text: str, values: dict[str, str]) -> str:
    """The text with each name of `values` replaced by its value, parenthesized."""
    return _TOKEN.sub(lambda m: f"({values[m.group(0)]})" if m.group(0) in values else m.group(0), text)


def _switches(view: KernelView) -> list[tuple[int, int, str]]:
    """Each `switch` of the module's docstring written as its `if` / `else if` chain."""
    found: list[tuple[int, int, str]] = []
    for switch in view.descendants(view.body, "switch_statement"):
        chain = _switch_chain(view, switch)
        if chain is not None:
            found.append(_in_place(view, switch.start_byte, switch.end_byte, chain))
            break                           # one a round: a switch inside a case is read the round after
    return found


def _switch_chain(view: KernelView, switch: Node) -> str | None:
    """The `if` / `else if` chain a switch is (`_switches`), or None where it is not one."""
    value = switch.child_by_field_name("condition")
    value = value.named_children[0] if value is not None and value.named_children else None
    if value is None or any(n.type in ("call_expression", "assignment_expression", "update_expression")
                            for n in view.descendants(value)):
        return None
    groups: list[tuple[list[str], list[Node]]] = []
    labels: list[str] = []
    for case in switch.child_by_field_name("body").named_children:
        if case.type == "comment":
            continue
        if case.type != "case_statement":
            return None
        label = case.child_by_field_name("value")
        labels.append("default" if label is None else view.text(label))
        statements = [n for n in case.named_children if n != label and n.type != "comment"]
        if not statements:
            continue                        # a label sharing the next group's statements
        last = statements[-1]
        if last.type not in ("break_statement", "return_statement") or \
                any(_breaks_in(statement) for statement in statements[:-1]):
            return None
        groups.append((labels, statements[:-1] if last.type == "break_statement" else statements))
        labels = []
    if labels or not groups or any("default" in group[:-1] or "default" in group and position != len(groups) - 1
                                   for position, (group, _) in enumerate(groups)):
        return None                         # labels with no statements at the end; default not last
    tested = view.text(value)
    arms = []
    for group, statements in groups:
        body = " ".join(view.text(n) for n in statements)
        if "default" in group:
            arms.append(f"{{ {body} }}")
        else:
            arms.append(f"if ({' || '.join(f'({tested}) == ({label})' for label in group)}) {{ {body} }}")
    return " else ".join(arms)


def _breaks_in(statement: Node) -> list[Node]:
    """The statement, or the breaks under it, that leave the switch around it (not its own loops' and switches')."""
    found, stack = [], [statement]
    while stack:
        node = stack.pop()
        if node.type == "break_statement":
            found.append(node)
        elif node.type not in ("for_statement", "while_statement", "do_statement", "switch_statement"):
            stack.extend(node.children)
    return found


def _while_loops(view: KernelView) -> list[tuple[int, int, str]]:
    """Each counted while loop (the module's docstring) written as a for loop: its counter's declaration and its last
    statement emptied (their newlines kept), its header made the for loop's."""
    found: list[tuple[int, int, str]] = []
    for loop in view.descendants(view.body, "while_statement"):
        body = loop.child_by_field_name("body")
        condition = loop.child_by_field_name("condition").child_by_field_name("value")
        counter = _comparison_of(view, condition) if condition is not None else None
        declaration = _declaration_before(view, loop, counter, read_between=True) if counter is not None else None
        statements = [n for n in body.named_children if n.type != "comment"]
        if declaration is None or body.type != "compound_statement" or not statements or \
                statements[-1].type != "expression_statement":
            continue
        update = statements[-1].named_children[0] if statements[-1].named_children else None
        if update is None or not _counts(view, update, counter) or \
                any(view.text(n) == counter for n in _after(loop) for n in view.descendants(n, "identifier")) or \
                any(True for _ in view.descendants(body, "continue_statement")) or \
                any(assigns(view, n, counter) for statement in statements[:-1] for n in view.descendants(statement)):
            continue
        header = f"for ({view.text(declaration).rstrip().rstrip(';')}; {view.text(condition)}; {view.text(update)})"
        (declarator,) = [d for d in declaration.named_children if d.type == "init_declarator"]
        start = view.text(declarator.child_by_field_name("value"))
        if any(view.text(n) == counter for statement in _after(declaration) if statement.end_byte <= loop.start_byte
               for n in view.descendants(statement, "identifier")):
            # The counter read between its declaration and the loop (a guard `if (i >= n) return;`): its start there.
            found += [(n.start_byte, n.end_byte, f"({start})") for statement in _after(declaration)
                      if statement.end_byte <= loop.start_byte
                      for n in view.descendants(statement, "identifier") if view.text(n) == counter]
        found += [_in_place(view, declaration.start_byte, declaration.end_byte, ""),
                  _in_place(view, loop.start_byte, body.start_byte, header + " "),
                  _in_place(view, statements[-1].start_byte, statements[-1].end_byte, "")]
    return found


def _reassigned_names(view: KernelView) -> list[tuple[int, int, str]]:
    """The first name assigned again by a statement of its declaration's block (the module's docstring): `name =
    value;` right before a while loop comparing `name`, or `name op= value;` (`name = e(name)`) where the declaration
    reads the thread's or the block's index (directly or through names declared from it); after the declaration of
    `name` alone (a plain `TYPE name` or `TYPE name = e`), where no later statement of the block declares `name`
    again or takes its address: the statement a fresh declaration, the block's later mentions of `name` the fresh
    name. (Other locals the lifter reads with their updates as they are.)"""
    taken = {view.text(n) for n in view.descendants(view.body, "identifier")}
    for statement in view.descendants(view.body, "expression_statement"):
        assignment = statement.named_children[0] if statement.named_children else None
        if assignment is None or assignment.type != "assignment_expression" or \
                assignment.child_by_field_name("left").type != "identifier":
            continue
        name = view.text(assignment.child_by_field_name("left"))
        declaration = _declaration_of(view, statement, name)
        later = _after(statement)
        loop = next((n for n in later if n.type != "comment"), None)
        operator = assignment.child_by_field_name("operator").type
        resets_counter = operator == "=" and loop is not None and loop.type == "while_statement" and \
            _comparison_of(view, loop.child_by_field_name("condition").child_by_field_name("value")) == name
        taken_apart = declaration is not None and name in _index_derived(view, statement) and (
            operator != "=" or any(view.text(n) == name
                                   for n in view.descendants(assignment.child_by_field_name("right"), "identifier")))
        if declaration is None or not (resets_counter or taken_apart) or \
                any(d.type == "declaration" and name in [view.text(t) for t in _declared(d)]
                    for following in later for d in [following, *view.descendants(following, "declaration")]) or \
                any(view.text(n) == f"&{name}" for following in later
                    for n in view.descendants(following, "pointer_expression")):
            continue
        fresh = fresh_name(name, taken)
        ctype = view.text(declaration.child_by_field_name("type"))
        value = view.text(assignment.child_by_field_name("right"))
        if operator != "=":
            value = f"{name} {operator[:-1]} ({value})"
        return [_in_place(view, statement.start_byte, statement.end_byte, f"{ctype} {fresh} = {value};"),
                *((n.start_byte, n.end_byte, fresh) for following in later
                  for n in view.descendants(following, "identifier") if view.text(n) == name)]
    return []


def _index_derived(view: KernelView, statement: Node) -> set[str]:
    """The names declared before the statement in its block from the thread's or the block's index, directly or
    through names so declared."""
    derived: set[str] = set()
    for declaration in reversed(_before(statement)):
        if declaration.type == "declaration" and any(
                view.text(n) in ("threadIdx", "blockIdx") or view.text(n) in derived
                for n in view.descendants(declaration, "identifier") if n not in _declared(declaration)):
            derived.update(view.text(n) for n in _declared(declaration))
    return derived


def _outer_counters(view: KernelView) -> list[tuple[int, int, str]]:
    """The first for loop whose counter is declared before it in its block (`int i; for (i = 0; i < n; ++i)`, or
    `int k = 0; ... for (; k < n; k += 2)` going on from its value: the module's docstring), where the first
    mention of the counter after the loop assigns it without reading it (or there is none) and nothing takes its
    address: the loop's header declares a fresh name of the counter's type, and the loop reads that name."""
    taken = {view.text(n) for n in view.descendants(view.body, "identifier")}
    for loop in view.descendants(view.body, "for_statement"):
        init, condition = loop.child_by_field_name("initializer"), loop.child_by_field_name("condition")
        if init is None:            # `for (; k < n; k += 2)`: the count goes on from the name's value
            name = _comparison_of(view, condition) if condition is not None else None
            update = loop.child_by_field_name("update")
            if name is None or update is None or not assigns(view, update, name):
                continue
        elif init.type != "assignment_expression" or view.text(init.child_by_field_name("operator")) != "=" or \
                init.child_by_field_name("left").type != "identifier":
            continue
        else:
            name = view.text(init.child_by_field_name("left"))
        declaration = _declaration_of(view, loop, name)
        later = [n for following in _after(loop) for n in view.descendants(following, "identifier")
                 if view.text(n) == name]
        if declaration is None:     # declared in an enclosing block (`int l, m;` before two nested loops)
            declaration, later = _enclosing_declaration(view, loop, name), []
        if declaration is None or later and not (
                later[0].parent.type == "assignment_expression" and
                later[0].parent.child_by_field_name("left") == later[0] and
                view.text(later[0].parent.child_by_field_name("operator")) == "=" and
                name not in {view.text(n) for n in view.descendants(later[0].parent.child_by_field_name("right"),
                                                                     "identifier")}) or \
                any(view.text(n).replace(" ", "") == f"&{name}"
                    for n in view.descendants(view.body, "pointer_expression")):
            continue
        fresh = fresh_name(name, taken)
        ctype = view.text(declaration.child_by_field_name("type"))
        opening = next(c for c in loop.children if c.type == "(")
        return [(init.start_byte, init.start_byte, f"{ctype} ") if init is not None else
                (opening.end_byte, opening.end_byte, f"{ctype} {fresh} = {name}"),
                *((n.start_byte, n.end_byte, fresh) for n in view.descendants(loop, "identifier")
                  if view.text(n) == name)]
    return []


def _enclosing_declaration(view: KernelView, loop: Node, name: str) -> Node | None:
    """The declaration of `name` alone in a block around the loop, where the name is mentioned nowhere but there and
    in the loop (so no value the loop leaves in it, nor one it finds there, is read)."""
    node, declaration = loop, None
    while declaration is None and node.parent is not None and node != view.body:
        node = node.parent
        if node.parent is not None and node.parent.type == "compound_statement":
            declaration = _declaration_of(view, node, name)
    outside = [n for n in view.descendants(view.body, "identifier") if view.text(n) == name and
               not loop.start_byte <= n.start_byte < loop.end_byte and
               not (declaration is not None and declaration.start_byte <= n.start_byte < declaration.end_byte)]
    return None if outside else declaration


def _declaration_of(view: KernelView, node: Node, name: str) -> Node | None:
    """The declaration of `name` alone before the node in its block (`int i;`, `size_t j = 0;`), nearest first."""
    return next((d for d in _before(node)
                 if d.type == "declaration" and [view.text(t) for t in _declared(d)] == [name]), None)


def _declared(declaration: Node) -> list[Node]:
    """The names a declaration declares, where each is a plain name (`int a, b = 1;`)."""
    targets = [d.child_by_field_name("declarator") if d.type == "init_declarator" else d
               for d in declaration.children_by_field_name("declarator")]
    return [t for t in targets if t is not None and t.type == "identifier"]


def _cached_reads(view: KernelView) -> list[tuple[int, int, str]]:
    """A local array filled by the loop right after its declaration from `const` parameters and only read after
    (`float p[DIM]; for (int d = 0; d < DIM; ++d) p[d] = x[i * DIM + d];`, a point kept in registers): each read
    `p[e]` the fill's value at d = e, the declaration and the loop emptied. The parameters are never written, so
    the value read later is the one the loop read."""
    constant = {p.name for p in view.kernel.params if p.is_pointer and p.is_const}
    for declaration in view.descendants(view.body, "declaration"):
        declarators = declaration.named_children[1:] if declaration.named_children else []
        target = declarators[0] if len(declarators) == 1 else None
        loop = declaration.next_named_sibling
        while loop is not None and loop.type in ("comment", "preproc_call"):
            loop = loop.next_named_sibling
        if target is None or target.type != "array_declarator" or loop is None or loop.type != "for_statement":
            continue
        name = view.text(target.child_by_field_name("declarator"))
        init, body = loop.child_by_field_name("initializer"), loop.child_by_field_name("body")
        fills = [n for n in view.descendants(body, "assignment_expression")]
        counters = [d for d in init.named_children if d.type == "init_declarator"] \
            if init is not None and init.type == "declaration" else []
        if len(fills) != 1 or len(counters) != 1 or view.text(body).strip("{}; \n") != view.text(fills[0]) or \
                fills[0].child_by_field_name("operator").type != "=":
            continue
        counter = view.text(counters[0].child_by_field_name("declarator"))
        left, value = fills[0].child_by_field_name("left"), fills[0].child_by_field_name("right")
        if left.type != "subscript_expression" or view.text(left) != f"{name}[{counter}]" or \
                any(n.type in ("assignment_expression", "update_expression") or n.type == "call_expression" and
                    not view.text(n.child_by_field_name("function")).startswith("static_cast<")
                    for n in view.descendants(value)) or \
                not {view.text(n.child_by_field_name("argument"))
                     for n in view.descendants(value, "subscript_expression")} <= constant:
            continue
        reads = [n for following in _after(loop) for n in view.descendants(following, "identifier")
                 if view.text(n) == name]
        # What the fill reads must hold the same after it: its locals not assigned again.
        later = [n for following in _after(loop) for n in view.descendants(following)]
        if any(assigns(view, n, view.text(read)) for n in later
               for read in view.descendants(value, "identifier") if view.text(read) != counter):
            continue
        if any(n.parent is None or n.parent.type != "subscript_expression" or
               n.parent.child_by_field_name("argument") != n or assigns(view, n.parent.parent, view.text(n.parent))
               for n in reads if n.parent.parent is not None):
            continue
        replacements = []
        for read in reads:
            at = view.text(read.parent.child_by_field_name("indices").named_children[0])
            filled = _TOKEN.sub(lambda m: f"({at})" if m.group(0) == counter else m.group(0), view.text(value))
            replacements.append((read.parent.start_byte, read.parent.end_byte, f"({filled})"))
        return replacements + [_in_place(view, declaration.start_byte, loop.end_byte, "")]
    return []


def _bumped_pointers(view: KernelView) -> list[tuple[int, int, str]]:
    """`p += d;` outside any loop of the block that declares p (`const float* p = a + c; float best = *p; p += C;`,
    the first row read apart), where nothing after it assigns p or what d reads: p read after it as `(p + (d))`, the
    statement emptied. One a round."""
    for statement in view.descendants(view.body, "expression_statement"):
        bump = statement.named_children[0] if statement.named_children else None
        if bump is None or bump.type != "assignment_expression" or \
                bump.child_by_field_name("operator").type != "+=" or \
                bump.child_by_field_name("left").type != "identifier":
            continue
        pointer, step = view.text(bump.child_by_field_name("left")), bump.child_by_field_name("right")
        if pointer not in _pointers_declared_before(view, statement):
            continue
        later = [n for following in _after(statement) for n in view.descendants(following)]
        reads = {view.text(n) for n in view.descendants(step, "identifier")}
        if pointer in reads or any(assigns(view, n, name) for n in later for name in reads | {pointer}):
            continue
        return [(n.start_byte, n.end_byte, f"({pointer} + ({view.text(step)}))") for n in later
                if n.type == "identifier" and view.text(n) == pointer] + \
            [_in_place(view, statement.start_byte, statement.end_byte, "")]
    return []


def _bounding_breaks(view: KernelView) -> list[tuple[int, int, str]]:
    """Each `if (v >= c) break;` among the first statements of a loop counting v up by one (`for (int v = a; v < b;
    ++v) { if (v < 0) continue; if (v >= H) break; ... }`, a window clipped at an edge), where those statements
    are only such `if`s of conditions that assign and call nothing and c is not assigned in the loop: the loop's
    bound made the lesser of both, `v < (b < c ? b : c)`, the break emptied. From the first v past c the loop
    either breaks or skips the iteration with nothing done, so it may as well end. One a round."""
    for loop in view.descendants(view.body, "for_statement"):
        init, condition, update = (loop.child_by_field_name(f) for f in ("initializer", "condition", "update"))
        body = loop.child_by_field_name("body")
        declarators = [d for d in init.named_children if d.type == "init_declarator"] \
            if init is not None and init.type == "declaration" else []
        if len(declarators) != 1 or update is None or update.type != "update_expression" or \
                "++" not in view.text(update) or condition is None or body.type != "compound_statement" or \
                condition.type != "binary_expression" or condition.child_by_field_name("operator").type != "<":
            continue
        counter = view.text(declarators[0].child_by_field_name("declarator"))
        if _comparison_of(view, condition) != counter:
            continue
        assigned = {view.text(n.child_by_field_name("left" if n.type == "assignment_expression" else "argument"))
                    for n in view.descendants(body, "assignment_expression", "update_expression")}
        for statement in [n for n in body.named_children if n.type != "comment"]:
            test = statement.child_by_field_name("condition") if statement.type == "if_statement" else None
            test = test.child_by_field_name("value") if test is not None else None
            then = statement.child_by_field_name("consequence") if test is not None else None
            if test is None or statement.child_by_field_name("alternative") is not None or then is None or \
                    view.text(then).strip("{}; \n") not in ("break", "continue") or \
                    any(n.type in ("assignment_expression", "update_expression", "call_expression")
                        for n in view.descendants(test)):
                break
            if view.text(then).strip("{}; \n") == "continue":
                continue
            op = test.child_by_field_name("operator").type if test.type == "binary_expression" else None
            limit = test.child_by_field_name("right") if op in (">=", ">") else None
            if limit is None or view.text(test.child_by_field_name("left")) != counter or \
                    any(view.text(n) in assigned | {counter} for n in view.descendants(limit, "identifier")):
                break
            stop = f"({view.text(limit)})" + (" + 1" if op == ">" else "")
            bound = condition.child_by_field_name("right")
            return [(bound.start_byte, bound.end_byte,
                     f"({view.text(bound)} < {stop} ? {view.text(bound)} : {stop})"),
                    _in_place(view, statement.start_byte, statement.end_byte, "")]
    return []


def _declaration_before(view: KernelView, loop: Node, counter: str, read_between: bool = False) -> Node | None:
    """The declaration of `counter` alone, with a value, in the loop's block before it, where nothing between them
    mentions the counter (or, `read_between`, assigns it or takes its address) or assigns what its value reads (the
    value moves into the loop's header)."""
    between: list[Node] = []
    sibling = loop.prev_named_sibling
    while sibling is not None:
        declarators = [d for d in sibling.named_children if d.type == "init_declarator"] \
            if sibling.type == "declaration" else []
        if len(declarators) == 1 and declarators[0].child_by_field_name("declarator").type == "identifier" and \
                view.text(declarators[0].child_by_field_name("declarator")) == counter:
            read = {view.text(n) for n in view.descendants(declarators[0].child_by_field_name("value"), "identifier")}
            assigned = any(assigns(view, n, name) for statement in between for n in view.descendants(statement)
                           for name in read)
            return None if assigned else sibling
        if any(view.text(n) == counter for n in view.descendants(sibling, "identifier")) and \
                (not read_between or any(assigns(view, n, counter) for n in view.descendants(sibling)) or
                 f"&{counter}" in view.text(sibling).replace(" ", "")):
            return None
        between.append(sibling)
        sibling = sibling.prev_named_sibling
    return None


def _counts(view: KernelView, update: Node, counter: str) -> bool:
    """`counter++`, `++counter`, `counter += step`."""
    if update.type == "update_expression":
        return view.text(update.child_by_field_name("argument")) == counter and "++" in view.text(update)
    return update.type == "assignment_expression" and view.text(update.child_by_field_name("left")) == counter and \
        update.child_by_field_name("operator").type == "+="


def _comparison_of(view: KernelView, condition: Node) -> str | None:
    """The name on the left of `name < bound` or `name <= bound`."""
    if condition.type == "binary_expression" and condition.child_by_field_name("operator").type in ("<", "<="):
        left = condition.child_by_field_name("left")
        return view.text(left) if left.type == "identifier" else None
    return None


def _after(node: Node) -> list[Node]:
    """The statements after `node` in its block."""
    return siblings(node, "next_named_sibling")


def _before(node: Node) -> list[Node]:
    """The statements before `node` in its block, nearest first."""
    return siblings(node, "prev_named_sibling")


def assigns(view: KernelView, node: Node, name: str) -> bool:
    """Whether the node assigns the name (`name = e`, `name += e`, `name++`)."""
    if node.type == "update_expression":
        return view.text(node.child_by_field_name("argument")) == name
    return node.type == "assignment_expression" and view.text(node.child_by_field_name("left")) == name


def _copied_through(view: KernelView) -> list[tuple[int, int, str]]:
    """A local copied into another, worked on there and copied back (`float v = (p); ...; float r = (v); p = r;`, what
    an inlined helper taking and returning a value leaves, `p = warpReduceSum(p);`): the statements between working
    on p itself, the copies dropped. Only where v and p are declared of one type, those statements do not mention p
    and nothing after mentions v or r (v holds p's value throughout and p is assigned it at the end, so p holding it
    throughout is the same). One a round."""
    types: dict[str, set[str]] = {}         # each name's declared types (several where it is declared apart)
    for d in view.descendants(view.body, "declaration"):
        for target in _declared(d) if d.child_by_field_name("type") is not None else []:
            types.setdefault(view.text(target), set()).add(view.text(d.child_by_field_name("type")))
    for declaration in view.descendants(view.body, "declaration"):
        copied = _copy_of(view, declaration)
        if copied is None:
            continue
        copy, original = copied
        if len(types.get(copy, ())) != 1 or types.get(copy) != types.get(original):
            continue                    # (a `double` copy of a float computes in double: not the same)
        between, back, result = [], None, None
        for statement in _after(declaration):
            names = {view.text(n) for n in view.descendants(statement, "identifier")}
            assigned = statement.named_children[0] if statement.type == "expression_statement" and \
                statement.named_children else None
            if assigned is not None and assigned.type == "assignment_expression" and \
                    view.text(assigned.child_by_field_name("operator")) == "=" and \
                    view.text(assigned.child_by_field_name("left")) == original and \
                    view.text(unparenthesized(assigned.child_by_field_name("right"))) in {copy, result}:
                back = statement
                break
            returned = _copy_of(view, statement) if statement.type == "declaration" else None
            if returned is not None and returned[1] == copy and result is None:
                result = returned[0]
                between.append(statement)
                continue
            if original in names or result is not None:
                break
            between.append(statement)
        if back is None or any(view.text(n) in {copy, result} for following in _after(back)
                               for n in view.descendants(following, "identifier")):
            continue
        renamed = [_in_place(view, n.start_byte, n.end_byte, original) for statement in between
                   for n in view.descendants(statement, "identifier") if view.text(n) == copy]
        dropped = [declaration, back] + [s for s in between if s.type == "declaration" and _copy_of(view, s) is not None
                                         and _copy_of(view, s)[0] == result]
        kept = [r for r in renamed if not any(d.start_byte <= r[0] < d.end_byte for d in dropped)]
        return kept + [_in_place(view, d.start_byte, d.end_byte, "") for d in dropped]
    return []


def _last_copies(view: KernelView) -> list[tuple[int, int, str]]:
    """`T v = (p);` where p is never mentioned after it (what an inlined helper taking a value leaves, `float mean =
    block_reduce_sum(s, partial) / n;`, s dead after the call; and its returned value's copy): v read as p, the
    copy dropped. Only where v and p are locals declared once each, of one type, and no loop holds the copy (a
    loop's next turn could read p before the copy again). One a round."""
    declarations: dict[str, list[Node]] = {}
    for d in view.descendants(view.body, "declaration"):
        for target in _declared(d) if d.child_by_field_name("type") is not None else []:
            declarations.setdefault(view.text(target), []).append(d)
    for declaration in view.descendants(view.body, "declaration"):
        copied = _copy_of(view, declaration)
        if copied is None:
            continue
        copy, original = copied
        if len(declarations.get(copy, ())) != 1 or len(declarations.get(original, ())) != 1 or \
                view.text(declarations[original][0].child_by_field_name("type")) != \
                view.text(declaration.child_by_field_name("type")) or \
                any(inside(declaration, loop) for loop in view.descendants(
                    view.body, "for_statement", "while_statement", "do_statement")):
            continue
        names = [n for n in view.descendants(view.body, "identifier") if n.start_byte >= declaration.end_byte]
        if any(view.text(n) == original for n in names):
            continue
        return [_in_place(view, declaration.start_byte, declaration.end_byte, "")] + \
            [_in_place(view, n.start_byte, n.end_byte, original) for n in names if view.text(n) == copy]
    return []


def _array_aliases(view: KernelView) -> list[tuple[int, int, str]]:
    """`T* p = (a);`, a pointer holding a `__shared__` array of the kernel or a pointer parameter (an inlined helper's
    parameter holding the block's partials, `float* partial = (sh);`), where neither p nor a is ever assigned: p
    read as a, the declaration dropped. One a round."""
    arrays = {name for d in view.descendants(view.body, "declaration")
              if any(view.text(c) == "__shared__" for c in d.children if c.type == "type_qualifier")
              and all(n.type == "array_declarator" for n in d.children_by_field_name("declarator"))
              for name in declared_names(view, d)}
    arrays |= {param.name for param in view.kernel.params if param.is_pointer}
    for declaration in view.descendants(view.body, "declaration"):
        declarators = [d for d in declaration.named_children if d.type == "init_declarator"]
        target = declarators[0].child_by_field_name("declarator") if len(declarators) == 1 else None
        if target is None or target.type != "pointer_declarator" or \
                target.child_by_field_name("declarator").type != "identifier":
            continue
        pointer = view.text(target.child_by_field_name("declarator"))
        array = unparenthesized(declarators[0].child_by_field_name("value"))
        if array.type != "identifier" or view.text(array) not in arrays or any(
                assigns(view, n, name) for n in view.descendants(view.body, "assignment_expression",
                                                                 "update_expression")
                for name in (pointer, view.text(array))) or \
                sum(pointer in declared_names(view, d) for d in view.descendants(view.body, "declaration")) != 1:
            continue
        return [_in_place(view, declaration.start_byte, declaration.end_byte, "")] + \
            [_in_place(view, n.start_byte, n.end_byte, view.text(array))
             for n in view.descendants(view.body, "identifier")
             if n.start_byte >= declaration.end_byte and view.text(n) == pointer]
    return []


def _dynamic_shared_carved(view: KernelView) -> list[tuple[int, int, str]]:
    """`extern __shared__ T buf[];` carved into pieces of one element a thread, `T* a = buf; T* b = buf +
    blockDim.x; T* c = buf + 2 * blockDim.x;` (pointers never assigned, buf read nowhere else): each piece a
    `__shared__ T a[blockDim.x];` of its own, buf's declaration dropped. The pieces are apart as long as each is
    read within the block's threads, which the block fold's reads (`a[tid]`, `a[tid + s]`, s below the block) are."""
    for declaration in view.descendants(view.body, "declaration"):
        declarators = declaration.children_by_field_name("declarator")
        if not any(view.text(c) == "extern" for c in declaration.children) or \
                not any(view.text(c) == "__shared__" for c in declaration.children) or len(declarators) != 1 or \
                declarators[0].type != "array_declarator" or declarators[0].child_by_field_name("size") is not None:
            continue
        buffer = view.text(declarators[0].child_by_field_name("declarator"))
        element = view.text(declaration.child_by_field_name("type"))
        pieces: dict[int, tuple[Node, str]] = {}
        for carving in view.descendants(view.body, "declaration"):
            inits = [d for d in carving.named_children if d.type == "init_declarator"]
            target = inits[0].child_by_field_name("declarator") if len(inits) == 1 else None
            value = unparenthesized(inits[0].child_by_field_name("value")) if target is not None else None
            if value is None or target.type != "pointer_declarator" or buffer not in {
                    view.text(n) for n in view.descendants(value, "identifier")}:
                continue
            offset = re.sub(r"\s+", "", view.text(value))
            place = next((k for k, form in ((0, buffer), (1, f"{buffer}+blockDim.x"), (1, f"blockDim.x+{buffer}"))
                          if offset == form), None)
            if place is None and (found := re.fullmatch(rf"{buffer}\+\(?(\d+)\*blockDim\.x\)?|"
                                                       rf"{buffer}\+\(?blockDim\.x\*(\d+)\)?", offset)):
                place = int(found.group(1) or found.group(2))
            name = view.text(target.child_by_field_name("declarator"))
            if place is None or place in pieces or target.child_by_field_name("declarator").type != "identifier" or \
                    any(assigns(view, n, name) for n in view.descendants(view.body, "assignment_expression",
                                                                      "update_expression")):
                pieces = {}
                break
            pieces[place] = (carving, name)
        uses = [n for n in view.descendants(view.body, "identifier") if view.text(n) == buffer]
        if not pieces or sorted(pieces) != list(range(len(pieces))) or \
                len(uses) != len(pieces) + 1:         # the declaration's name and one a piece
            continue
        return [_in_place(view, declaration.start_byte, declaration.end_byte, "")] + \
            [_in_place(view, carving.start_byte, carving.end_byte, f"__shared__ {element} {name}[blockDim.x];")
             for carving, name in pieces.values()]
    return []


def _copy_of(view: KernelView, declaration: Node) -> tuple[str, str] | None:
    """`T v = (p);`, p a plain name: (v, p)."""
    declarators = [d for d in declaration.named_children if d.type == "init_declarator"]
    if len(declarators) != 1 or declarators[0].child_by_field_name("declarator").type != "identifier":
        return None
    value = unparenthesized(declarators[0].child_by_field_name("value"))
    if value.type != "identifier":
        return None
    return view.text(declarators[0].child_by_field_name("declarator")), view.text(value)


_VECTORS = {f"{element}{count}": (element if element != "uint" else "unsigned int", count)
            for element in ("float", "double", "int", "uint") for count in (2, 3, 4)}
_VECTORS |= {"__half2": ("__half", 2), "half2": ("half", 2), "__nv_bfloat162": ("__nv_bfloat16", 2)}
# Calls building a vector from its components, each component converted by the function named (or taken as is).
_BUILDERS = {**{f"make_{vector}": (vector, "") for vector in _VECTORS},
             "__floats2half2_rn": ("__half2", "__float2half_rn"), "__halves2half2": ("__half2", ""),
             "__floats2bfloat162_rn": ("__nv_bfloat162", "__float2bfloat16_rn")}
# Calls converting a whole vector: (the vector converted, the vector made, the function on each component).
_CONVERSIONS = {"__half22float2": ("__half2", "float2", "__half2float"),
                "__bfloat1622float2": ("__nv_bfloat162", "float2", "__bfloat162float")}
_COMPONENTS = "xyzw"
# `reinterpret_cast<const float4*>(p)[i]` or `((const float4*)p)[i]`, squeezed: the vector type, p and i.
_VECTOR_ACCESS = re.compile(r"(?:reinterpret_cast<(?:const)?(\w+)\*>\((.+)\)|\(\((?:const)?(\w+)\*\)(.+)\))"
                            r"\[(.+)\]")


def _vector_access(view: KernelView, node: Node, pointers: dict[str, tuple[str, str]]) -> tuple[str, str, str] | None:
    """A vector type's element read through a cast pointer (`reinterpret_cast<const float4*>(p)[i]`, or `p4[i]`
    where `pointers` says `p4` holds such a cast of p): the vector type, the pointer's text and the index's; None for
    anything else."""
    if node.type != "subscript_expression":
        return None
    base = unparenthesized(node.child_by_field_name("argument"))
    if base.type == "identifier" and view.text(base) in pointers:
        index = node.child_by_field_name("indices") or node.child_by_field_name("index")
        index = index.named_children[0] if index.type == "subscript_argument_list" else index
        return (*pointers[view.text(base)], view.text(index))
    squeezed = view.text(node).replace(" ", "").replace("\n", "")
    found = _VECTOR_ACCESS.fullmatch(squeezed)
    if found is None:
        return None
    vector = found.group(1) or found.group(3)
    pointer = found.group(2) or found.group(4)
    return (vector, pointer, found.group(5)) if vector in _VECTORS and pointer.count("(") == pointer.count(")") \
        else None


def _vector_locals(view: KernelView) -> list[tuple[int, int, str]]:
    """Vector values (`float4 a = reinterpret_cast<const float4*>(p)[i];`, `make_float4(...)`, a copy of another)
    read and written by component (`a.x`, `a.x = ...`, `reinterpret_cast<float4*>(q)[i] = a;`): a local per
    component (`float a_x = p[4 * (i) + 0], ...;`), the vector loads and stores the components' loads and stores
    (the same elements, read and written once each). A component read straight from a vector load (`...[i].y`) is the
    element's load. Only where every mention of such a local is so; the kernel as it is otherwise."""
    taken = {view.text(n) for n in view.descendants(view.body, "identifier")}
    # `float4* g4 = reinterpret_cast<float4*>(g);`, never assigned again: g4[i] reads as the cast does.
    pointers: dict[str, tuple[str, str]] = {}
    pointer_declarations: dict[str, Node] = {}
    assigned = {view.text(n.child_by_field_name("left")) for n in view.descendants(view.body, "assignment_expression")}
    for declaration in view.descendants(view.body, "declaration"):
        declarators = declaration.children_by_field_name("declarator")
        kind = declaration.child_by_field_name("type")
        if len(declarators) != 1 or declarators[0].type != "init_declarator" or kind is None or \
                view.text(kind) not in _VECTORS or declarators[0].child_by_field_name("declarator").type != \
                "pointer_declarator":
            continue
        name = view.text(declarators[0].child_by_field_name("declarator").child_by_field_name("declarator"))
        cast = _VECTOR_ACCESS.fullmatch(view.text(declarators[0].child_by_field_name("value")).replace(" ", "") + "[0]")
        if cast is not None and name not in assigned and (cast.group(1) or cast.group(3)) == view.text(kind):
            pointers[name] = (view.text(kind), cast.group(2) or cast.group(4))
            pointer_declarations[name] = declaration
    declared: dict[str, tuple[Node, str, int, list]] = {}    # local -> declaration, element type, count, its parts
    for declaration in view.descendants(view.body, "declaration"):
        kind = declaration.child_by_field_name("type")
        declarators = declaration.children_by_field_name("declarator")
        if kind is None or view.text(kind) not in _VECTORS or len(declarators) != 1 or \
                declarators[0].type != "init_declarator" or \
                declarators[0].child_by_field_name("declarator").type != "identifier":
            continue
        element, count = _VECTORS[view.text(kind)]
        name = view.text(declarators[0].child_by_field_name("declarator"))
        value = unparenthesized(declarators[0].child_by_field_name("value"))
        access = _vector_access(view, value, pointers)
        arguments = value.child_by_field_name("arguments") if value.type == "call_expression" else None
        function = view.text(value.child_by_field_name("function")) if arguments is not None else ""
        converted = _vector_access(view, unparenthesized(arguments.named_children[0]), pointers) \
            if function in _CONVERSIONS and len(arguments.named_children) == 1 else None
        if access is not None and access[0] == view.text(kind):
            parts: list = [f"({access[1]})[{count} * ({access[2]}) + {c}]" for c in range(count)]
        elif converted is not None and _CONVERSIONS[function][:2] == (converted[0], view.text(kind)):
            parts = [f"{_CONVERSIONS[function][2]}(({converted[1]})[{count} * ({converted[2]}) + {c}])"
                     for c in range(count)]
        elif arguments is not None and _BUILDERS.get(function, ("",))[0] == view.text(kind) and \
                len(arguments.named_children) == count:
            parts = list(arguments.named_children)      # spelled below, their own components rewritten
        elif value.type == "identifier" and view.text(value) in declared:
            parts = [f"{view.text(value)}_{c}" for c in _COMPONENTS[:count]]
        else:
            return []
        if {f"{name}_{c}" for c in _COMPONENTS[:count]} & taken:
            return []
        declared[name] = (declaration, element, count, parts)
    uses: list[tuple[int, int, str]] = []
    for node in view.descendants(view.body, "field_expression"):
        argument, field = node.child_by_field_name("argument"), node.child_by_field_name("field")
        access = _vector_access(view, unparenthesized(argument), pointers)
        if access is not None and view.text(field) in _COMPONENTS[:_VECTORS[access[0]][1]]:
            uses.append((node.start_byte, node.end_byte, f"({access[1]})[{_VECTORS[access[0]][1]} * ({access[2]}) + "
                                                         f"{_COMPONENTS.index(view.text(field))}]"))
    for identifier in view.descendants(view.body, "identifier"):
        name = view.text(identifier)
        if name not in declared or identifier.parent.type == "init_declarator" and \
                identifier.parent.child_by_field_name("declarator") == identifier:
            continue
        if not inside(identifier, declared[name][0].parent) or identifier.start_byte < declared[name][0].end_byte:
            continue                    # another variable of the name, in a scope of its own
        parent, count = identifier.parent, declared[name][2]
        if parent.type == "field_expression" and view.text(parent.child_by_field_name("field")) in _COMPONENTS[:count]:
            component = view.text(parent.child_by_field_name("field"))
            uses.append((parent.start_byte, parent.end_byte, f"{name}_{component}"))
            continue
        store = parent if parent.type == "assignment_expression" and parent.child_by_field_name("right") == identifier \
            else None
        target = _vector_access(view, unparenthesized(store.child_by_field_name("left")), pointers) \
            if store is not None else None
        if target is not None and view.text(store.child_by_field_name("operator")) == "=" and \
                _VECTORS.get(target[0], ("", 0))[1] == count and store.parent.type == "expression_statement":
            stores = [f"({target[1]})[{count} * ({target[2]}) + {c}] = {name}_{_COMPONENTS[c]};" for c in range(count)]
            uses.append((store.parent.start_byte, store.parent.end_byte, "{ " + " ".join(stores) + " }"))
            continue
        if parent.type == "init_declarator" and unparenthesized(parent.child_by_field_name("value")) == identifier:
            continue                    # a copy's value: its declaration is rewritten below
        return []

    # A vector stored as built (`reinterpret_cast<__half2*>(y)[i] = __floats2half2_rn(a, b);`): its components'.
    built = []
    for store in view.descendants(view.body, "assignment_expression"):
        target = _vector_access(view, unparenthesized(store.child_by_field_name("left")), pointers)
        value = unparenthesized(store.child_by_field_name("right"))
        arguments = value.child_by_field_name("arguments") if value.type == "call_expression" else None
        function = view.text(value.child_by_field_name("function")) if arguments is not None else ""
        if target is None or store.parent.type != "expression_statement" or \
                view.text(store.child_by_field_name("operator")) != "=" or \
                _BUILDERS.get(function, ("",))[0] != target[0] or \
                len(arguments.named_children) != _VECTORS[target[0]][1]:
            continue
        built.append((store.parent, target, _BUILDERS[function][1], list(arguments.named_children)))
    for name, declaration in pointer_declarations.items():
        rewritten = [(a, b) for a, b, _ in uses] + [(s.start_byte, s.end_byte) for s, _, _, _ in built] + \
            [(d.start_byte, d.end_byte) for d, _, _, _ in declared.values()]
        uses_left = [n for n in view.descendants(view.body, "identifier") if view.text(n) == name and
                     not inside(n, declaration) and not any(a <= n.start_byte < b for a, b in rewritten)]
        if uses_left:
            return []                   # the pointer read some other way
        uses.append((declaration.start_byte, declaration.end_byte, ""))

    def spelled(part) -> str:
        if isinstance(part, str):
            return part
        inner = [(a - part.start_byte, b - part.start_byte, t) for a, b, t in uses
                 if part.start_byte <= a and b <= part.end_byte]
        text = view.text(part)
        for a, b, t in sorted(inner, reverse=True):
            text = text[:a] + t + text[b:]
        return text

    found = [(declaration.start_byte, declaration.end_byte, f"{element} " + ", ".join(
        f"{name}_{c} = {spelled(p)}" for c, p in zip(_COMPONENTS, parts)) + ";")
        for name, (declaration, element, count, parts) in declared.items()]
    found += [(statement.start_byte, statement.end_byte, "{ " + " ".join(
        f"({target[1]})[{len(parts)} * ({target[2]}) + {c}] = {convert}({spelled(part)});"
        for c, part in enumerate(parts)) + " }") for statement, target, convert, parts in built]
    return found + [u for u in uses if not any(d[0] <= u[0] and u[1] <= d[1] for d in found)]


def _chained(view: KernelView) -> list[tuple[int, int, str]]:
    """Each `a = v op= e;` whose inner target is a plain name (reading it twice reads the same value), split."""
    found = []
    for statement in view.descendants(view.body, "expression_statement"):
        outer = statement.named_children[0] if statement.named_children else None
        inner = outer.child_by_field_name("right") if outer is not None and \
            outer.type == "assignment_expression" else None
        while inner is not None and inner.type == "parenthesized_expression":
            inner = inner.named_children[0]
        if inner is None or inner.type != "assignment_expression" or \
                inner.child_by_field_name("left").type != "identifier":
            continue
        name = view.text(inner.child_by_field_name("left"))
        target, op = view.text(outer.child_by_field_name("left")), view.text(outer.child_by_field_name("operator"))
        # A block of its own: the statement may be a loop's body without braces.
        found.append(_in_place(view, statement.start_byte, statement.end_byte,
                               f"{{ {view.text(inner)}; {target} {op} {name}; }}"))
    return found


def _advanced_pointers(view: KernelView) -> list[tuple[int, int, str]]:
    """Each pointer a counted loop advances by its last statement (the module's docstring), read in the loop as
    where it points at each iteration; the advance emptied (its newlines kept). One loop a round."""
    for loop in view.descendants(view.body, "for_statement"):
        # Pointers declared in the loop's own block before it: an enclosing loop declares them afresh each time. Or
        # before the loop whose whole body the loop is (a perfect nest, `for (i ...) for (j ...) { ...; p += s; }`):
        # the pointer then moves on through the inner loop's iterations of every outer one.
        outer = _enclosing_loop(view, loop)
        pointers = _pointers_declared_before(view, loop)
        nested = _pointers_declared_before(view, outer) - pointers if outer is not None else set()
        body, update = loop.child_by_field_name("body"), loop.child_by_field_name("update")
        init = loop.child_by_field_name("initializer")
        declarators = [d for d in init.named_children if d.type == "init_declarator"] \
            if init is not None and init.type == "declaration" else []
        statements = [n for n in body.named_children if n.type != "comment"] if body.type == "compound_statement" \
            else []
        # The advance last, or first (`for (k = 1; k < K; ++k) { col += P; ... *col ... }`: the body reads the
        # pointer one step on).
        advanced = next((statement for statement in statements[-1:] + statements[:1]
                         if statement.type == "expression_statement" and statement.named_children and
                         statement.named_children[0].type == "assignment_expression" and
                         statement.named_children[0].child_by_field_name("operator").type == "+=" and
                         view.text(statement.named_children[0].child_by_field_name("left")) in pointers | nested),
                        None)
        if len(declarators) != 1 or advanced is None:
            continue
        counter = view.text(declarators[0].child_by_field_name("declarator"))
        start = view.text(declarators[0].child_by_field_name("value"))
        advance = advanced.named_children[0]
        if update is None or not _counts(view, update, counter) or update.type != "update_expression":
            continue
        pointer, step = view.text(advance.child_by_field_name("left")), advance.child_by_field_name("right")
        ahead = " + 1" if advanced is not statements[-1] else ""
        iteration = f"{counter} - ({start}){ahead}"
        if pointer in nested:
            iteration = _nest_iteration(view, outer, loop, counter, start, pointer)
            if iteration is None or ahead:
                continue
        uses = [n for n in view.descendants(body, "identifier") if view.text(n) == pointer]
        header = [n for part in (init, loop.child_by_field_name("condition"), update) if part is not None
                  for n in view.descendants(part, "identifier")]
        if any(view.text(n) == pointer for n in header):
            continue                      # the header would read the pointer where the body no longer moves it
        if any(True for _ in view.descendants(body, "continue_statement")) or \
                any(assigns(view, n, pointer) for statement in statements if statement is not advanced
                    for n in view.descendants(statement)) or \
                any(view.text(n) in (pointer, counter) for n in view.descendants(step, "identifier")) or \
                any(view.text(n) == pointer for following in _after(outer if pointer in nested else loop)
                    for n in view.descendants(following, "identifier")):
            continue
        # In 64 bits, as the pointer's own steps are: a product past 2^31 elements does not wrap.
        at = f"({pointer} + (long long)({iteration}) * ({view.text(step)}))"
        return [(n.start_byte, n.end_byte, at) for n in uses if not (
                    advance.start_byte <= n.start_byte < advance.end_byte)] + \
            [_in_place(view, advanced.start_byte, advanced.end_byte, "")]
    return []


def _header_advances(view: KernelView) -> list[tuple[int, int, str]]:
    """Each local a counted loop's header advances beside its counter (`for (int t = 0; t < T; ++t, idx += D)`),
    read in the body as what it holds at each iteration, `(idx + (size_t)(t - (0)) * (D))` (in the local's type),
    and dropped from the header;
    where the counter steps by one, the local is declared before the loop in its block, nothing in the body
    assigns it, the step reads neither, and nothing reads the local after the loop. One loop a round."""
    for loop in view.descendants(view.body, "for_statement"):
        init, update = loop.child_by_field_name("initializer"), loop.child_by_field_name("update")
        declarators = [d for d in init.named_children if d.type == "init_declarator"] \
            if init is not None and init.type == "declaration" else []
        parts = [n for n in update.named_children if n.type != "comment"] \
            if update is not None and update.type == "comma_expression" else []
        if len(declarators) != 1 or len(parts) != 2:
            continue
        counter = view.text(declarators[0].child_by_field_name("declarator"))
        counting = [p for p in parts if p.type == "update_expression" and "++" in view.text(p) and
                    view.text(p.child_by_field_name("argument")) == counter]
        advance = next((p for p in parts if p not in counting), None)
        if len(counting) != 1 or advance is None or advance.type != "assignment_expression" or \
                advance.child_by_field_name("operator").type != "+=" or \
                advance.child_by_field_name("left").type != "identifier":
            continue
        local, step = view.text(advance.child_by_field_name("left")), advance.child_by_field_name("right")
        body = loop.child_by_field_name("body")
        declared = [sibling.child_by_field_name("type") for sibling in _before(loop)
                    if sibling.type == "declaration" for d in sibling.named_children
                    if d.type == "init_declarator" and view.text(d.child_by_field_name("declarator")) == local]
        if not declared or any(view.text(n) in (local, counter) for n in view.descendants(step, "identifier")) or \
                any(assigns(view, n, local) for n in view.descendants(body)) or \
                any(view.text(n) == local for part in (init, loop.child_by_field_name("condition"))
                    for n in view.descendants(part, "identifier")) or \
                any(view.text(n) == local for following in _after(loop)
                    for n in view.descendants(following, "identifier")):
            continue
        start = view.text(declarators[0].child_by_field_name("value"))
        # In the local's own type: `idx += D` never overflows an int where the local is wider.
        at = f"({local} + ({view.text(declared[0])})({counter} - ({start})) * ({view.text(step)}))"
        return [(n.start_byte, n.end_byte, at) for n in view.descendants(body, "identifier")
                if view.text(n) == local] + [(update.start_byte, update.end_byte, view.text(counting[0]))]
    return []


def _pointers_declared_before(view: KernelView, node: Node) -> set[str]:
    """The pointers declared in `node`'s block before it."""
    return {view.text(d.child_by_field_name("declarator").child_by_field_name("declarator"))
            for sibling in _before(node) if sibling.type == "declaration" for d in sibling.named_children
            if d.type == "init_declarator" and d.child_by_field_name("declarator").type == "pointer_declarator"}


def _enclosing_loop(view: KernelView, loop: Node) -> Node | None:
    """The for loop whose whole body `loop` is (alone in braces or without them), if any."""
    parent = loop.parent
    if parent is not None and parent.type == "compound_statement":
        if [n for n in parent.named_children if n.type != "comment"] != [loop]:
            return None
        parent = parent.parent
    return parent if parent is not None and parent.type == "for_statement" else None


def _nest_iteration(view: KernelView, outer: Node, inner: Node, counter: str, start: str, pointer: str) -> str | None:
    """The count of inner iterations before the current one, over a perfect nest of counted loops stepping by one
    (`for (i = a; i < b; ++i) for (j = c; j < d; ++j)`: (i - a) * (d - c) + (j - c)), where the inner loop's
    bounds read neither the outer counter nor the pointer, and the outer header does not read the pointer."""
    init, update, condition = (outer.child_by_field_name(f) for f in ("initializer", "update", "condition"))
    declarators = [d for d in init.named_children if d.type == "init_declarator"] \
        if init is not None and init.type == "declaration" else []
    inner_condition = inner.child_by_field_name("condition")
    if len(declarators) != 1 or update is None or update.type != "update_expression" or \
            "++" not in view.text(update) or condition is None or inner_condition is None or \
            "++" not in view.text(inner.child_by_field_name("update")):
        return None
    outer_counter = view.text(declarators[0].child_by_field_name("declarator"))
    if not _counts(view, update, outer_counter) or _comparison_of(view, condition) != outer_counter or \
            _comparison_of(view, inner_condition) != counter:
        return None
    header = [n for part in (init, condition, update) for n in view.descendants(part, "identifier")]
    bound = inner_condition.child_by_field_name("right")
    if any(view.text(n) == pointer for n in header) or any(view.text(n) in (outer_counter, pointer) for part in
                                                           (bound, inner.child_by_field_name("initializer"))
                                                           for n in view.descendants(part, "identifier")):
        return None
    trip = f"({view.text(bound)}) - ({start})" + (" + 1" if inner_condition.child_by_field_name("operator").type ==
                                                 "<=" else "")
    outer_start = view.text(declarators[0].child_by_field_name("value"))
    return f"({outer_counter} - ({outer_start})) * ({trip}) + ({counter} - ({start}))"


def _do_whiles(view: KernelView) -> list[tuple[int, int, str]]:
    """Each counted do-while loop (the module's docstring) as a for loop: the counter's declaration and the trailing
    `while (...);` emptied (newlines kept), `do` made the for loop's header."""
    found: list[tuple[int, int, str]] = []
    for loop in view.descendants(view.body, "do_statement"):
        body, condition = loop.child_by_field_name("body"), loop.child_by_field_name("condition")
        test = condition.named_children[0] if condition is not None and condition.named_children else None
        if test is None or test.type != "binary_expression" or test.child_by_field_name("operator").type != "<":
            continue
        step = test.child_by_field_name("left")
        statements = [n for n in body.named_children if n.type != "comment"] if body.type == "compound_statement" \
            else []
        if step.type == "update_expression" and view.text(step).startswith("++"):
            counter, stepped = view.text(step.child_by_field_name("argument")), None
        elif step.type == "identifier" and statements and statements[-1].type == "expression_statement" and \
                statements[-1].named_children and \
                _unit_step(view, statements[-1].named_children[0], view.text(step)) == 1:
            counter, stepped = view.text(step), statements[-1]     # `do { ...; c++; } while (c < n);`
        else:
            continue
        declaration = _declaration_before(view, loop, counter)
        if declaration is None or any(True for _ in view.descendants(body, "continue_statement")) or \
                any(assigns(view, n, counter) for statement in statements if statement is not stepped
                    for n in view.descendants(statement)) or \
                stepped is None and any(assigns(view, n, counter) for n in view.descendants(body)) or \
                any(view.text(n) == counter for n in _after(loop) for n in view.descendants(n, "identifier")):
            continue
        (declarator,) = [d for d in declaration.named_children if d.type == "init_declarator"]
        start, bound = view.text(declarator.child_by_field_name("value")), view.text(test.child_by_field_name("right"))
        header = (f"for ({view.text(declaration).rstrip().rstrip(';')}; {counter} < max({bound}, ({start}) + 1); "
                  f"++{counter})")
        found += [_in_place(view, declaration.start_byte, declaration.end_byte, ""),
                  _in_place(view, loop.start_byte, body.start_byte, header + " "),
                  _in_place(view, body.end_byte, loop.end_byte, "")]
        if stepped is not None:
            found.append(_in_place(view, stepped.start_byte, stepped.end_byte, ""))
    return found


def _guarded_do_whiles(view: KernelView) -> list[tuple[int, int, str]]:
    """`if (i >= n) return; ... do { ...; i += step; } while (i < n);` (a grid-stride loop as some write it), the
    guard among the statements before the loop in the kernel's body, nothing between them assigning i or what n
    reads: the guard makes the first test true, so the loop is the while loop `while (i < n) { ...; i += step; }`
    (which the counted while rule then reads). The guard is emptied where it comes right before the loop and the
    loop ends the kernel (nothing after it for a thread past n to run), kept otherwise."""
    statements = [n for n in view.body.named_children if n.type != "comment"]
    for position, loop in enumerate(statements):
        if loop.type != "do_statement":
            continue
        condition = loop.child_by_field_name("condition")
        kept = _ordered(view, condition.named_children[0] if condition is not None and condition.named_children
                        else None, "<")
        for back, guard in enumerate(reversed(statements[:position])):
            if guard.type != "if_statement" or guard.child_by_field_name("alternative") is not None or \
                    view.text(guard.child_by_field_name("consequence")).strip("{}; \n") != "return" or \
                    kept is None or tuple(view.text(side) for side in passed_below(
                        guard.child_by_field_name("condition").child_by_field_name("value")) or ()) != kept:
                continue
            between = statements[position - back:position]
            read = {view.text(n) for n in view.descendants(condition, "identifier")}
            if any(assigns(view, n, name) for statement in between for n in view.descendants(statement)
                   for name in read):
                break
            body = loop.child_by_field_name("body")
            last = back == 0 and position == len(statements) - 1
            return ([_in_place(view, guard.start_byte, guard.end_byte, "")] if last else []) + [
                _in_place(view, loop.start_byte, body.start_byte, f"while ({kept[0]} < {kept[1]}) "),
                _in_place(view, body.end_byte, loop.end_byte, "")]
    return []


def passed_below(guard: Node) -> tuple[Node, Node] | None:
    """(a, b) where a thread past the return guard `if (guard) return;` has a < b: the guard is `a >= b` (or `b <=
    a`) or `!(a < b)` (or `!(b > a)`); None for any other guard."""
    guard = bare(guard)
    negated = guard.type == "unary_expression" and guard.child_by_field_name("operator").type == "!"
    test = bare(guard.child_by_field_name("argument")) if negated else guard
    if test.type != "binary_expression":
        return None
    operator = test.child_by_field_name("operator").type
    left, right = test.child_by_field_name("left"), test.child_by_field_name("right")
    return (left, right) if operator == ("<" if negated else ">=") else \
        (right, left) if operator == (">" if negated else "<=") else None


def _ordered(view: KernelView, test: Node | None, operator: str) -> tuple[str, str] | None:
    """(a, b) where the test is `a op b` or `b op' a` (op' the operator flipped), op the given operator; None
    otherwise."""
    if test is None or test.type != "binary_expression":
        return None
    left, right = (view.text(test.child_by_field_name(side)) for side in ("left", "right"))
    written = test.child_by_field_name("operator").type
    return (left, right) if written == operator else (right, left) if written == _FLIPPED[operator] else None


def _decrementing_whiles(view: KernelView) -> list[tuple[int, int, str]]:
    """`int n = e; while (n--) { ... }` where the body and what follows never read n: the loop runs e times (a count,
    not negative), so it is `for (int n = 0; n < (e); ++n) { ... }`."""
    for loop in view.descendants(view.body, "while_statement"):
        test = loop.child_by_field_name("condition").child_by_field_name("value")
        if test is None or test.type != "update_expression" or not view.text(test).endswith("--"):
            continue
        counter = view.text(test.child_by_field_name("argument"))
        declaration = _declaration_before(view, loop, counter)
        body = loop.child_by_field_name("body")
        if declaration is None or any(view.text(n) == counter for part in [body, *_after(loop)]
                                      for n in view.descendants(part, "identifier")):
            continue
        (declarator,) = [d for d in declaration.named_children if d.type == "init_declarator"]
        count = view.text(declarator.child_by_field_name("value"))
        kind = view.text(declaration.child_by_field_name("type"))
        return [_in_place(view, declaration.start_byte, declaration.end_byte, ""),
                _in_place(view, loop.start_byte, body.start_byte,
                          f"for ({kind} {counter} = 0; {counter} < ({count}); ++{counter}) ")]
    return []


def _post_increments(view: KernelView) -> list[tuple[int, int, str]]:
    """A pointer a counted loop reads or writes once an iteration as `*p++` (`running += *src++; *dst++ =
    running;`), declared before the loop in its block, each `*p++` a statement's own (not under an `if`, a loop or
    a choice), p mentioned nowhere else in the loop nor after it: `*p++` read as `*(p + (k - (a)))`, the element of
    the iteration (`*(p + ((a) - k))` in a loop counting down)."""
    for loop in view.descendants(view.body, "for_statement"):
        init, update, body = (loop.child_by_field_name(f) for f in ("initializer", "update", "body"))
        declarators = [d for d in init.named_children if d.type == "init_declarator"] \
            if init is not None and init.type == "declaration" else []
        if len(declarators) != 1 or update is None or update.type != "update_expression" or \
                any(True for _ in view.descendants(body, "continue_statement", "break_statement")):
            continue                      # an iteration cut short would not step the pointer
        counter = view.text(declarators[0].child_by_field_name("declarator"))
        start = view.text(declarators[0].child_by_field_name("value"))
        iteration = f"{counter} - ({start})" if "++" in view.text(update) else f"({start}) - {counter}"
        statements = [n for n in body.named_children if n.type != "comment"] \
            if body.type == "compound_statement" else [body]
        for pointer in _pointers_declared_before(view, loop):
            uses = [n for n in view.descendants(body, "identifier") if view.text(n) == pointer]
            steps = [n.parent for n in uses if n.parent is not None and n.parent.type == "update_expression" and
                     view.text(n.parent) == f"{pointer}++" and n.parent.parent is not None and
                     n.parent.parent.type == "pointer_expression"]
            if len(steps) != 1 or len(uses) != 1 or \
                    not any(s.type == "expression_statement" and _in_expression(steps[0], s) for s in statements) or \
                    any(view.text(n) == pointer for following in _after(loop)
                        for n in view.descendants(following, "identifier")):
                continue
            return [(steps[0].start_byte, steps[0].end_byte, f"({pointer} + ({iteration}))")]
    return []


def _pointer_loops(view: KernelView) -> list[tuple[int, int, str]]:
    """Each loop a pointer walks (the module's docstring) as a loop counting its steps."""
    for loop in view.descendants(view.body, "for_statement", "do_statement"):
        body = loop.child_by_field_name("body")
        condition = loop.child_by_field_name("condition")
        if loop.type == "for_statement":
            init, update = loop.child_by_field_name("initializer"), loop.child_by_field_name("update")
            declarators = [d for d in init.named_children if d.type == "init_declarator"] \
                if init is not None and init.type == "declaration" else []
            if len(declarators) != 1 or declarators[0].child_by_field_name("declarator").type != "pointer_declarator" \
                    or condition is None or update is None or update.type != "update_expression" or \
                    "++" not in view.text(update):
                continue
            pointer = view.text(declarators[0].child_by_field_name("declarator").child_by_field_name("declarator"))
            base, test = view.text(declarators[0].child_by_field_name("value")), condition
            if view.text(update.child_by_field_name("argument")) != pointer:
                continue
        else:
            test = condition.named_children[0] if condition is not None and condition.named_children else None
            step = test.child_by_field_name("left") if test is not None and test.type == "binary_expression" else None
            if step is None or step.type != "update_expression" or not view.text(step).startswith("++"):
                continue
            pointer = view.text(step.child_by_field_name("argument"))
            if pointer not in _pointers_declared_before(view, loop):
                continue
            base = pointer
        if test.type != "binary_expression" or test.child_by_field_name("operator").type not in ("!=", "<") or \
                view.text(bare(test.child_by_field_name("left"))).lstrip("+") != pointer:
            continue
        extent = _pointer_extent(view, loop, pointer, base, bare(test.child_by_field_name("right")))
        walked = {pointer} | set(_TOKEN.findall(base))      # the pointer and what its start reads
        if extent is None or any(assigns(view, n, name) for n in view.descendants(body) for name in walked) \
                or f"&{pointer}" in view.text(body).replace(" ", "") or \
                any(view.text(n) == pointer for following in _after(loop)
                    for n in view.descendants(following, "identifier")):
            continue
        counter = fresh_name(f"{pointer}_step", {view.text(n) for n in view.descendants(view.body, "identifier")})
        bound = f"max((long long)({extent}), 1LL)" if loop.type == "do_statement" else f"(long long)({extent})"
        found = [(n.start_byte, n.end_byte, f"({base} + {counter})")
                 for n in view.descendants(body, "identifier") if view.text(n) == pointer]
        header = f"for (long long {counter} = 0; {counter} < {bound}; ++{counter}) "
        found.append(_in_place(view, loop.start_byte, body.start_byte, header))
        if loop.type == "do_statement":
            found.append(_in_place(view, body.end_byte, loop.end_byte, ""))
        return found
    return []


def _pointer_extent(view: KernelView, loop: Node, pointer: str, base: str, bound: Node) -> str | None:
    """n where a pointer loop's bound is `b + n` (b its start, or the pointer itself where it walks from where it
    is), or an end pointer declared so before the loop in its block and assigned nowhere; None otherwise."""
    if bound.type == "identifier":
        declaration = next((sibling for sibling in _before(loop) if sibling.type == "declaration" and any(
            d.type == "init_declarator" and view.text(d.child_by_field_name("declarator")).lstrip("*& ").split()[-1:]
            == [view.text(bound)] for d in sibling.named_children)), None)
        if declaration is None or any(assigns(view, n, view.text(bound)) for n in view.descendants(view.body)):
            return None
        (declarator,) = [d for d in declaration.named_children if d.type == "init_declarator"] or [None]
        bound = bare(declarator.child_by_field_name("value")) if declarator is not None else None
        if bound is None or any(assigns(view, n, pointer) for sibling in _after(declaration)
                                if sibling.end_byte <= loop.start_byte for n in view.descendants(sibling)):
            return None
    if bound.type != "binary_expression" or bound.child_by_field_name("operator").type != "+" or \
            view.text(bare(bound.child_by_field_name("left"))) not in (base, pointer):
        return None
    return view.text(bound.child_by_field_name("right"))


def _in_expression(node: Node, statement: Node) -> bool:
    """Whether `node` is inside `statement` with no choice between them (`?:`, `&&`, `||`): evaluated once each time
    the statement runs."""
    while node is not None and node != statement:
        if node.type == "conditional_expression" or node.type == "binary_expression" and \
                node.child_by_field_name("operator").type in ("&&", "||"):
            return False
        node = node.parent
    return node == statement


def _count(view: KernelView, written: str) -> int | None:
    """An array's size as written: a number, or a name the file defines as one (`#define K 3`) or the kernel
    declares constant with a number (`constexpr int kChannels = 3;`); None otherwise."""
    if written.isdigit():
        return int(written)
    for node in view.descendants(view.document.tree.root_node, "preproc_def"):
        if view.text(node.child_by_field_name("name")) == written and node.child_by_field_name("value") is not None:
            return int(macro_value(view, node)) if macro_value(view, node).isdigit() else None
    for declaration in view.descendants(view.body, "declaration"):
        words = view.text(declaration).split("=")[0].split()
        for d in declaration.named_children:
            value = d.child_by_field_name("value") if d.type == "init_declarator" else None
            if value is not None and view.text(d.child_by_field_name("declarator")) == written and \
                    ("const" in words or "constexpr" in words):
                return int(view.text(value)) if view.text(value).isdigit() else None
    return None


def _recomputable(view: KernelView, entry: Node, declaration: Node) -> bool:
    """Whether a table's entry computes the same value wherever the table is read after its declaration (the module's
    docstring)."""
    helpers = {view.text(f.child_by_field_name("declarator").child_by_field_name("declarator")): f
               for f in view.descendants(view.document.tree.root_node, "function_definition")
               if f.child_by_field_name("declarator").type == "function_declarator"}
    for node in view.descendants(entry):
        if node.type in ("assignment_expression", "update_expression", "subscript_expression", "pointer_expression"):
            return False
        if node.type == "call_expression":
            called = view.text(node.child_by_field_name("function"))
            helper = helpers.get(called)
            if helper is not None and any(p.child_by_field_name("declarator") is not None and
                                          p.child_by_field_name("declarator").type == "pointer_declarator"
                                          for p in view.descendants(helper, "parameter_declaration")) or \
                    helper is None and called not in PURE_FUNCTIONS:
                return False
    names = {view.text(n) for n in view.descendants(entry, "identifier")}
    return not any(assigns(view, n, name) for n in view.descendants(view.body)
                   if n.start_byte > declaration.end_byte for name in names)


def _constant_tables(view: KernelView) -> list[tuple[int, int, str]]:
    """Each constant table of numbers the kernel declares and only reads (the module's docstring), its reads made
    choices among its entries and its declaration emptied (newlines kept)."""
    found: list[tuple[int, int, str]] = []
    for declaration in view.descendants(view.body, "declaration"):
        declarators = [d for d in declaration.named_children if d.type == "init_declarator"]
        if len(declarators) != 1:
            continue
        target, value = declarators[0].child_by_field_name("declarator"), declarators[0].child_by_field_name("value")
        if target.type != "array_declarator" or value is None or value.type != "initializer_list":
            continue
        entries = [view.text(e) for e in value.named_children if e.type != "comment"]
        size = target.child_by_field_name("size")
        if not entries or not all(_NUMBER.fullmatch(e) or _recomputable(view, e_node, declaration)
                                  for e, e_node in zip(entries, value.named_children)) or \
                size is not None and _count(view, view.text(size).strip()) != len(entries):
            continue                      # `const int t[4] = {1, 2};` holds zeros the list does not show
        entries = [e if _NUMBER.fullmatch(e) else f"({e})" for e in entries]
        declared = target.child_by_field_name("declarator")
        uses = [n for n in view.descendants(view.body, "identifier") if view.text(n) == view.text(declared) and
                n != declared]
        reads = [n.parent for n in uses]
        if any(r is None or r.type != "subscript_expression" or r.child_by_field_name("argument") != n or
               (r.parent is not None and (r.parent.type in ("update_expression", "pointer_expression") or
                                          r.parent.type == "assignment_expression" and
                                          r.parent.child_by_field_name("left") == r))
               for n, r in zip(uses, reads)):
            continue
        replacements = []
        for read in reads:
            index = read.child_by_field_name("indices").named_children
            if len(index) != 1 or any(n.type in ("assignment_expression", "update_expression", "call_expression")
                                      for n in view.descendants(index[0])):
                break
            at = f"({view.text(index[0])})"
            choice = entries[-1]
            for position in range(len(entries) - 2, -1, -1):
                choice = f"{at} == {position} ? {entries[position]} : {choice}"
            replacements.append((read.start_byte, read.end_byte, f"({choice})"))
        else:
            found += replacements + [_in_place(view, declaration.start_byte, declaration.end_byte, "")]
    return found


WRITTEN_OUT = 64     # turns of a loop over a local array's elements written out, at most (of a nest, all its turns)


def _local_arrays(view: KernelView) -> dict[str, tuple[Node, int]]:
    """The kernel's local arrays of one dimension and a constant size (`float acc[HEAD_DIM];`, not `__shared__`),
    used only through subscripts that read or write an element: name -> (declaration, size)."""
    found: dict[str, tuple[Node, int]] = {}
    for declaration in view.descendants(view.body, "declaration"):
        if any(view.text(c) in ("__shared__", "static", "extern") for c in declaration.children):
            continue
        declarators = [d for d in declaration.named_children if d.type in ("array_declarator", "init_declarator")]
        if len(declarators) != 1:
            continue
        target = declarators[0] if declarators[0].type == "array_declarator" else \
            declarators[0].child_by_field_name("declarator")
        if target.type != "array_declarator" or target.child_by_field_name("declarator").type != "identifier" or \
                target.child_by_field_name("size") is None:
            continue
        name = view.text(target.child_by_field_name("declarator"))
        if _declarations_of(view, name) != 1:
            continue                      # a name declared again elsewhere: its places would not be this array's
        size = constant_value(view, view.text(target.child_by_field_name("size")))
        uses = [n for n in view.descendants(view.body, "identifier") if view.text(n) == name and
                n != target.child_by_field_name("declarator")]
        if size is None or not 0 < size <= WRITTEN_OUT or name in found or \
                any(n.parent is None or n.parent.type != "subscript_expression" or
                    n.parent.child_by_field_name("argument") != n or
                    len(n.parent.child_by_field_name("indices").named_children) != 1 or
                    _element_referenced(n.parent) for n in uses):
            continue
        found[name] = (declaration, size)
    return found


def _stacked_shared(view: KernelView) -> dict[str, tuple[Node, int]]:
    """The kernel's `__shared__` arrays of two or more dimensions whose first subscript is everywhere a constant or
    the counter of a loop of constant bounds (`__shared__ float sh[CPG + 1][NT];` read as `sh[c][tid]`, `sh[CPG][0]`):
    a few arrays of one value a thread each, stacked; name -> (declaration, rows)."""
    found: dict[str, tuple[Node, int]] = {}
    for declaration in view.descendants(view.body, "declaration"):
        declarators = declaration.children_by_field_name("declarator")
        if not any(view.text(c) == "__shared__" for c in declaration.children) or len(declarators) != 1 or \
                declarators[0].type != "array_declarator" or \
                declarators[0].child_by_field_name("declarator").type != "array_declarator":
            continue
        outer = declarators[0]
        while outer.child_by_field_name("declarator").type == "array_declarator":
            outer = outer.child_by_field_name("declarator")
        name_node = outer.child_by_field_name("declarator")
        name = view.text(name_node)
        rows = constant_value(view, view.text(outer.child_by_field_name("size"))) \
            if outer.child_by_field_name("size") is not None else None
        uses = [n for n in view.descendants(view.body, "identifier") if view.text(n) == name and n != name_node]
        if name_node.type != "identifier" or rows is None or not 0 < rows <= WRITTEN_OUT or \
                _declarations_of(view, name) != 1 or any(
                    n.parent.type != "subscript_expression" or n.parent.child_by_field_name("argument") != n or
                    n.parent.parent.type != "subscript_expression" or
                    not _constant_row(view, n.parent.child_by_field_name("indices")) for n in uses):
            continue
        found[name] = (declaration, rows)
    return found


def _constant_row(view: KernelView, indices: Node) -> bool:
    """Whether a subscript's index is a constant or the counter of a loop around it of constant bounds."""
    if len(indices.named_children) != 1:
        return False
    index = unparenthesized(indices.named_children[0])
    if constant_value(view, view.text(index)) is not None:
        return True
    loop = index.parent
    while loop is not None and index.type == "identifier":
        if loop.type == "for_statement" and loop.child_by_field_name("initializer") is not None and \
                _declarations_of(view, view.text(index), loop.child_by_field_name("initializer")):
            declared = next(d for d in loop.child_by_field_name("initializer").named_children
                            if d.type == "init_declarator")
            condition = loop.child_by_field_name("condition")
            return condition is not None and condition.type == "binary_expression" and \
                constant_value(view, view.text(declared.child_by_field_name("value"))) is not None and \
                constant_value(view, view.text(condition.child_by_field_name("right"))) is not None
        loop = loop.parent
    return False


def _shared_rows_split(view: KernelView) -> list[tuple[int, int, str]]:
    """A stacked `__shared__` array (`_stacked_shared`) every first subscript of which is a constant once the loops
    over its rows are written out (`sh[(2)][tid]`): one `__shared__` array a row (`sh_2[tid]`), of the rest of its
    dimensions."""
    taken = {view.text(n) for n in view.descendants(view.document.tree.root_node, "identifier")}
    for name, (declaration, rows) in _stacked_shared(view).items():
        uses = [n.parent for n in view.descendants(view.body, "identifier")
                if view.text(n) == name and n.parent.type == "subscript_expression"]
        at = [constant_value(view, view.text(u.child_by_field_name("indices").named_children[0])) for u in uses]
        if any(row is None or not 0 <= row < rows for row in at):
            continue
        names = []
        for row in range(rows):
            names.append(fresh_name(f"{name}_{row}", taken))
            taken.add(names[-1])
        declarator = declaration.child_by_field_name("declarator")
        outer = declarator
        while outer.child_by_field_name("declarator").type == "array_declarator":
            outer = outer.child_by_field_name("declarator")
        rest = view.source[outer.end_byte:declarator.end_byte].decode()
        head = view.source[declaration.start_byte:declarator.start_byte].decode()
        tail = view.source[declarator.end_byte:declaration.end_byte].decode()
        return [_in_place(view, declaration.start_byte, declaration.end_byte,
                          " ".join(f"{head}{row_name}{rest}{tail}" for row_name in names))] + \
            [(u.start_byte, u.end_byte, names[row]) for u, row in zip(uses, at)]
    return []


def _bare_blocks_flattened(view: KernelView) -> list[tuple[int, int, str]]:
    """A block in braces that is a statement of another block and declares nothing of its own (what writing a loop
    out leaves, `{ { sh_0[tid] = p_0; } { sh_1[tid] = p_1; } }`): its statements in its place, the braces dropped."""
    return [replacement for block in view.descendants(view.body, "compound_statement")
            if block.parent is not None and block.parent.type == "compound_statement" and
            not any(child.type == "declaration" for child in block.named_children)
            for replacement in (_in_place(view, block.start_byte, block.start_byte + 1, ""),
                                _in_place(view, block.end_byte - 1, block.end_byte, ""))]


def _values_declared(view: KernelView) -> list[tuple[int, int, str]]:
    """`T x;` then, later in its block, `x = e;` the first statement of the block to mention x (what scalarizing a
    local array leaves, `float acc_0; ... acc_0 = 0.0f;`): `T x = e;` there, the declaration dropped."""
    found: list[tuple[int, int, str]] = []
    for declaration in view.descendants(view.body, "declaration"):
        declarators = declaration.children_by_field_name("declarator")
        if len(declarators) != 1 or declarators[0].type != "identifier" or \
                any(view.text(c) in ("__shared__", "static", "extern") for c in declaration.children):
            continue
        name = view.text(declarators[0])
        for statement in _after(declaration):
            if not any(view.text(n) == name for n in view.descendants(statement, "identifier")):
                continue
            assignment = statement.named_children[0] if statement.type == "expression_statement" and \
                statement.named_children else None
            if assignment is not None and assignment.type == "assignment_expression" and \
                    view.text(assignment.child_by_field_name("operator")) == "=" and \
                    view.text(assignment.child_by_field_name("left")) == name and \
                    not any(view.text(n) == name
                            for n in view.descendants(assignment.child_by_field_name("right"), "identifier")):
                head = view.source[declaration.start_byte:declarators[0].start_byte].decode()
                found += [_in_place(view, declaration.start_byte, declaration.end_byte, ""),
                          (assignment.start_byte, assignment.start_byte, head)]
            break
    return found


def _declarations_of(view: KernelView, name: str, node: Node | None = None) -> int:
    """How many times the kernel (its parameters included), or the code under `node`, declares the name."""
    declared = [n for n in view.descendants(node or view.node, "identifier") if view.text(n) == name and
                n.parent is not None and n.parent.child_by_field_name("declarator") == n and
                n.parent.type in ("init_declarator", "array_declarator", "pointer_declarator", "declaration",
                                  "parameter_declaration")]
    return len(declared)


def _element_referenced(subscript: Node) -> bool:
    """Whether an element is taken further than its value: its address (`&a[k]`), or subscripted again."""
    outer = subscript.parent
    return outer is not None and outer.type in ("pointer_expression", "subscript_expression") and \
        outer.child_by_field_name("argument") == subscript


def constant_value(view: KernelView, written: str) -> int | None:
    """The value of an integer expression of numbers, the file's `#define`s of numbers, its `const` and `constexpr`
    integers and enumerators, and the kernel's integer template parameters as instantiated (`(3) + 1`, `HEAD_DIM -
    1`, `2 * kRadius + 1`, `CPG + 1`); None for any other text, or a division of a negative value."""
    numbers = _NUMBERS.get(view)
    if numbers is None:         # (the file's numbers once a view: a written-out loop asks for thousands)
        numbers = _NUMBERS[view] = file_macros(view) | file_constants(view) | view.template_numbers
    return integer_value(macros_expanded(written, numbers))


_NUMBERS: weakref.WeakKeyDictionary[KernelView, dict[str, str]] = weakref.WeakKeyDictionary()


def _array_loops_written_out(view: KernelView) -> list[tuple[int, int, str]]:
    """Each loop of constant bounds whose counter indexes a local array (`for (int d = 0; d < HEAD_DIM; ++d) acc[d]
    = 0.0f;`), written out: its body once for each value of the counter, in order, each copy in braces of its own
    with the counter a number, on the loop's first line (its newlines kept after). Only a loop counting up by one
    from a constant to a constant over at most WRITTEN_OUT turns, its counter assigned nowhere in its body and read
    nowhere after it, its body without `break`, `continue`, `return`, comments or preprocessor lines but `#pragma
    unroll` (dropped, as the `#pragma unroll` before it)."""
    arrays = _local_arrays(view) | _stacked_shared(view)
    found: list[tuple[int, int, str]] = []
    written: list[Node] = []
    for loop in view.descendants(view.body, "for_statement") if arrays else []:
        if any(inside(loop, outer) for outer in written):
            continue                      # a loop inside one written out: its copies' turn comes next round
        init, condition = loop.child_by_field_name("initializer"), loop.child_by_field_name("condition")
        update, body = loop.child_by_field_name("update"), loop.child_by_field_name("body")
        declarators = [d for d in init.named_children if d.type == "init_declarator"] \
            if init is not None and init.type == "declaration" else []
        if len(declarators) != 1 or condition is None or update is None or body is None or \
                condition.type != "binary_expression" or \
                view.text(condition.child_by_field_name("left")) != view.text(declarators[0].child_by_field_name(
                    "declarator")):
            continue
        counter = view.text(declarators[0].child_by_field_name("declarator"))
        start = constant_value(view, view.text(declarators[0].child_by_field_name("value")))
        stop = constant_value(view, view.text(condition.child_by_field_name("right")))
        operator = view.text(condition.child_by_field_name("operator"))
        if start is None or stop is None or operator not in ("<", "<=") or \
                not (_counts(view, update, counter) and (update.type == "update_expression" or
                                                          view.text(update.child_by_field_name("right")) == "1")):
            continue
        turns = list(range(start, stop + (operator == "<=")))
        # The nest's other loops of constant bounds over the arrays, around it or inside: all written out in the end.
        nest_turns = max((len(range(*bounds)) for inner in view.descendants(body, "for_statement")
                          if (bounds := constant_bounds(view, inner)) is not None and
                          _indexes(view, inner, arrays)), default=1)
        outer = loop.parent
        while outer is not None and outer != view.body:
            if outer.type == "for_statement" and (bounds := constant_bounds(view, outer)) is not None and \
                    _indexes(view, outer, arrays):
                nest_turns *= len(range(*bounds))
            outer = outer.parent
        indexed = _indexes(view, loop, arrays)
        inner = list(view.descendants(body))
        pragmas = [n for n in inner if n.type.startswith("preproc")]
        if not indexed or not 0 < len(turns) * nest_turns <= WRITTEN_OUT or \
                any(n.type in ("break_statement", "continue_statement", "return_statement", "comment") for n in inner) \
                or any(view.text(n).split() != ["#pragma", "unroll"] for n in pragmas) or \
                any(assigns(view, n, counter) for n in inner) or _declarations_of(view, counter, body) or \
                any(view.text(n) == counter and not _redeclared(view, n, later)
                    for later in _after(loop) for n in view.descendants(later, "identifier")):
            continue
        dropped = [(n.start_byte, n.end_byte) for n in pragmas]
        copies = []
        for turn in turns:
            spans = [(n.start_byte, n.end_byte, f"({turn})") for n in view.descendants(body, "identifier")
                     if view.text(n) == counter] + [(a, b, "") for a, b in dropped]
            text, at = "", body.start_byte
            for a, b, new in sorted(spans):
                text += view.source[at:a].decode() + new
                at = b
            text += view.source[at:body.end_byte].decode()
            copies.append("{ " + " ".join(text.split("\n")) + " }")
        copies = ["{", *copies, "}"]      # one statement, as the loop was (the body of an `if` or a loop)
        before = loop.prev_sibling
        found.append(_in_place(view, loop.start_byte, loop.end_byte, " ".join(copies)))
        if before is not None and before.type.startswith("preproc") and view.text(before).split() == ["#pragma",
                                                                                                     "unroll"]:
            found.append(_in_place(view, before.start_byte, before.end_byte, ""))
        written.append(loop)
    return found


def _indexes(view: KernelView, loop: Node, arrays: dict[str, tuple[Node, int]]) -> bool:
    """Whether the for loop's body subscripts one of the arrays with its counter."""
    declarators = [d for d in loop.child_by_field_name("initializer").named_children if d.type == "init_declarator"] \
        if loop.child_by_field_name("initializer") is not None else []
    if len(declarators) != 1:
        return False
    counter = view.text(declarators[0].child_by_field_name("declarator"))
    return any(view.text(subscript.child_by_field_name("argument")) in arrays and
               any(view.text(n) == counter
                   for n in view.descendants(subscript.child_by_field_name("indices"), "identifier"))
               for subscript in view.descendants(loop.child_by_field_name("body"), "subscript_expression"))


def constant_bounds(view: KernelView, loop: Node) -> tuple[int, int] | None:
    """The first and the last-plus-one values of a for loop's counter where both are constants (`for (int j = 0; j
    < D; ++j)`, D a template parameter instantiated as 64: (0, 64)); None otherwise."""
    init, condition = loop.child_by_field_name("initializer"), loop.child_by_field_name("condition")
    declarators = [d for d in init.named_children if d.type == "init_declarator"] \
        if init is not None and init.type == "declaration" else []
    if len(declarators) != 1 or condition is None or condition.type != "binary_expression" or \
            view.text(condition.child_by_field_name("operator")) not in ("<", "<="):
        return None
    start = constant_value(view, view.text(declarators[0].child_by_field_name("value")))
    stop = constant_value(view, view.text(condition.child_by_field_name("right")))
    if start is None or stop is None:
        return None
    return start, stop + (view.text(condition.child_by_field_name("operator")) == "<=")


def _redeclared(view: KernelView, mention: Node, statement: Node) -> bool:
    """Whether the name mentioned is one `statement` declares around the mention, a loop's own counter (`for (int c
    = 0; ...)`) or a block's local declared before it: another variable of the same name."""
    name, node = view.text(mention), mention
    while node is not None and node != statement.parent:
        scope = node.parent
        if scope is None:
            return False
        if scope.type == "for_statement" and scope.child_by_field_name("initializer") is not None and \
                _declarations_of(view, name, scope.child_by_field_name("initializer")):
            return True
        if scope.type == "compound_statement" and any(
                child.start_byte < node.start_byte and child.type == "declaration" and
                name in declared_names(view, child) for child in scope.named_children):
            return True
        node = scope
    return False


def _local_arrays_scalarized(view: KernelView) -> list[tuple[int, int, str]]:
    """Each local array every subscript of which is a constant in its bounds (`acc[(5)]`): one local per element,
    `T a_0, a_1, ...;` (with the initializer's entries, the missing ones zero as C has them), each subscript the
    element's local."""
    found: list[tuple[int, int, str]] = []
    taken = {view.text(n) for n in view.descendants(view.document.tree.root_node, "identifier")}
    for name, (declaration, size) in _local_arrays(view).items():
        uses = [n.parent for n in view.descendants(view.body, "identifier") if view.text(n) == name and
                n.parent is not None and n.parent.type == "subscript_expression"]
        at = [constant_value(view, view.text(u.child_by_field_name("indices").named_children[0])) for u in uses]
        if any(k is None or not 0 <= k < size for k in at):
            continue
        declarator = next(d for d in declaration.named_children if d.type in ("array_declarator", "init_declarator"))
        value = declarator.child_by_field_name("value") if declarator.type == "init_declarator" else None
        if value is not None and value.type != "initializer_list":
            continue
        entries = [view.text(e) for e in value.named_children if e.type != "comment"] if value is not None else []
        if len(entries) > size:
            continue
        names = []
        for k in range(size):
            names.append(fresh_name(f"{name}_{k}", taken))
            taken.add(names[-1])
        initial = [f" = {entries[k]}" if k < len(entries) else (" = 0" if value is not None else "")
                   for k in range(size)]
        type_text = view.text(declaration)[:declarator.start_byte - declaration.start_byte]
        found.append(_in_place(view, declaration.start_byte, declaration.end_byte,
                               f"{type_text}{', '.join(n + i for n, i in zip(names, initial))};"))
        found += [(u.start_byte, u.end_byte, names[k]) for u, k in zip(uses, at)]
    return found


def _declarations_split(view: KernelView) -> list[tuple[int, int, str]]:
    """Each declaration of several plain names with values in the kernel's body (`int warp = g / 32, lane = g %
    32;`), or of several arrays or plain names without (`int cy[4], cx[4];`, `int l, m;`), not a loop's header: one
    declaration a name, in order, on its line (C initializes them in order, each seeing those before)."""
    found = []
    for declaration in view.descendants(view.body, "declaration"):
        declarators = [d for d in declaration.named_children if d.type == "init_declarator"] or \
            [d for d in declaration.named_children if d.type == "array_declarator"] or \
            [d for d in declaration.named_children if d.type == "identifier"]    # `int cy[4], cx[4];`, `int l, m;`
        if len(declarators) < 2 or len(declarators) != len(declaration.children_by_field_name("declarator")) or \
                declaration.parent is None or declaration.parent.type == "for_statement" or \
                any(d.type == "init_declarator" and d.child_by_field_name("declarator").type != "identifier"
                    for d in declarators) or \
                any(n.type == "comment" for d in declarators for n in view.descendants(d)):
            continue                      # (a comment inside a value would swallow what follows on one line)
        type_text = view.text(declaration)[:declarators[0].start_byte - declaration.start_byte]
        found.append(_in_place(view, declaration.start_byte, declaration.end_byte,
                               " ".join(f"{type_text}{' '.join(view.text(d).split())};" for d in declarators)))
    return found


def _helpers_called(view: KernelView) -> list[tuple[int, int, str]]:
    """A call of a `__device__` helper whose body is more than declarations and returns (a loop, an assignment;
    the lifter inlines the others itself), made as a statement of the kernel's own (`float m = dot3(gr, w, xr, C) /
    C;`, the call not in the arm of a `?:`, `&&` or `||`): the helper's body put before the statement, each
    parameter a local holding its argument and every name the helper declares renamed apart, its closing `return
    e;` a local holding e, and the call read as that local, as the compiler inlines it. The helper has no other
    `return`, and is no template but one of types called with them named (`blockReduceSum<float>(v)`: T read as
    float); the arguments assign and call nothing, so evaluating them first is evaluating them where they were. One
    a round."""
    helpers = _loop_helpers(view)
    if not helpers:
        return []
    taken = {view.text(n) for n in view.descendants(view.document.tree.root_node, "identifier")}
    for call in view.descendants(view.body, "call_expression"):
        function = call.child_by_field_name("function")
        # A template's types named at the call (`blockReduceSum<float>(v)`), or no template.
        named = function.child_by_field_name("name") if function.type == "template_function" else function
        types = [view.text(t) for t in function.child_by_field_name("arguments").named_children] \
            if function.type == "template_function" else []
        helper = helpers.get(view.text(named)) if named.type == "identifier" else None
        arguments = [a for a in call.child_by_field_name("arguments").named_children if a.type != "comment"]
        statement = _statement_of(call)
        if helper is None or statement is None or len(arguments) != len(helper.parameters) or \
                len(types) != len(helper.types) or \
                any(n.type in ("assignment_expression", "update_expression", "call_expression", "comma_expression")
                    for argument in arguments for n in view.descendants(argument)):
            continue
        # A `void` helper's call is a statement of its own; a reference's argument a place the helper cannot move.
        places = [bare(argument) for reference, argument in zip(helper.references, arguments) if reference]
        if helper.value is None and (statement.type != "expression_statement" or
                                     bare(statement.named_children[0]) != call) or \
                not all(_fixed_place(view, place, places) for place in places):
            continue
        passed = {reference for reference in helper.references if reference is not None}
        renamed = {name: fresh_name(f"{helper.name}_{name}", taken) for name in helper.declared - passed}
        renamed |= {reference: f"({view.text(argument)})"
                    for reference, argument in zip(helper.references, arguments) if reference is not None}
        renamed |= dict(zip(helper.types, types))

        def spelled(text: str) -> str:
            return _NAME.sub(lambda m: renamed.get(m.group(0), m.group(0)), text)

        bound = " ".join(f"{spelled(parameter)} = ({view.text(argument)});"
                         for parameter, reference, argument in zip(helper.parameters, helper.references, arguments)
                         if reference is None)
        if helper.value is None:        # the statement is the call: the body in its place, in a block of its own
            return [_in_place(view, statement.start_byte, statement.end_byte,
                              f"{{ {bound} {spelled(helper.body)} }}")]
        result = fresh_name(f"{helper.name}_result", taken)
        inlined = f"{bound} {spelled(helper.body)} {spelled(helper.returns)} {result} = ({spelled(helper.value)}); "
        # The statement may be a loop's or a branch's body without braces: the block keeps the two together.
        braced = statement.parent.type != "compound_statement"
        return [(statement.start_byte, statement.start_byte, ("{ " if braced else "") + inlined),
                (call.start_byte, call.end_byte, result)] + \
            ([(statement.end_byte, statement.end_byte, " }")] if braced else [])
    return []


def _fixed_place(view: KernelView, place: Node, places: list[Node]) -> bool:
    """Whether the argument passed by reference is a name or an element `a[e]` whose index reads nothing any of the
    places passed by reference names (which the helper may assign), so that it is one place throughout."""
    if place.type == "identifier":
        return True
    roots = {view.text(p if p.type == "identifier" else p.child_by_field_name("argument")) for p in places}
    return place.type == "subscript_expression" and not any(
        view.text(n) in roots for n in view.descendants(place.child_by_field_name("indices"), "identifier"))


@dataclass(frozen=True)
class _LoopHelper:
    """A helper `_helpers_called` inlines, as text on one line: its parameters' declarations without their values
    (`const float* v`), the name of each passed by reference (None for one passed by value), the names it declares,
    its body before the return, the type it returns and the value returned (None for a `void` helper), and the
    names of its type parameters where it is a template of types (`template <typename T>`)."""

    name: str
    parameters: list[str]
    references: list[str | None]
    declared: set[str]
    body: str
    returns: str
    value: str | None
    types: list[str]


def _helper_early_returns(view: KernelView) -> list[tuple[int, int, str]]:
    """A `void` helper's early return, `if (c) return;` before the rest of its body (a merge that leaves an empty
    pair alone): the rest under `if (!(c)) { ... }`, which `_helpers_called` inlines. One a round."""
    for item in view.document.tree.root_node.named_children:
        declarator = item.child_by_field_name("declarator") if item.type == "function_definition" else None
        body = item.child_by_field_name("body") if declarator is not None else None
        if body is None or item == view.node or view.text(item.child_by_field_name("type")) != "void":
            continue
        statements = [n for n in body.named_children if n.type != "comment"]
        for statement in statements[:-1]:
            then = statement.child_by_field_name("consequence") if statement.type == "if_statement" else None
            inner = [n for n in then.named_children if n.type != "comment"] if then is not None and \
                then.type == "compound_statement" else [then]
            if then is None or statement.child_by_field_name("alternative") is not None or len(inner) != 1 or \
                    inner[0] is None or inner[0].type != "return_statement" or inner[0].named_children:
                continue
            condition = statement.child_by_field_name("condition")
            return [_in_place(view, statement.start_byte, statement.end_byte, f"if (!{view.text(condition)}) {{"),
                    (body.end_byte - 1, body.end_byte - 1, "}")]
    return []


def _loop_helpers(view: KernelView) -> dict[str, _LoopHelper]:
    """The file's helpers `_helpers_called` inlines, by name."""
    helpers: dict[str, _LoopHelper] = {}
    for item in view.document.tree.root_node.named_children:
        # A template of types alone (`template <typename T>`): inlined where called with its types named.
        types = [view.text(p.named_children[-1]) for p in item.child_by_field_name("parameters").named_children] \
            if item.type == "template_declaration" else []
        if item.type == "template_declaration" and not all(
                p.type == "type_parameter_declaration" and p.named_children
                for p in item.child_by_field_name("parameters").named_children):
            continue
        definition = item.named_children[-1] if item.type == "template_declaration" else item
        declarator = definition.child_by_field_name("declarator") if definition.type == "function_definition" \
            else None
        body = definition.child_by_field_name("body") if declarator is not None else None
        if declarator is None or declarator.type != "function_declarator" or body is None or \
                definition == view.node:
            continue
        statements = [n for n in body.named_children if n.type != "comment"]
        returns = definition.child_by_field_name("type")
        void = returns is not None and view.text(returns) == "void"
        simple = all(n.type in ("declaration", "if_statement") for n in statements[:-1])
        last = statements[-1] if statements else None
        if returns is None or last is None or not void and (
                simple or last.type != "return_statement" or not last.named_children) or \
                any(n.type in ("return_statement", "goto_statement", "labeled_statement") or
                    n.type in ("preproc_if", "preproc_ifdef", "preproc_def", "preproc_function_def") or
                    n.type == "preproc_call" and view.text(n).split()[:2] != ["#pragma", "unroll"]
                    for statement in (statements if void else statements[:-1])
                    for n in view.descendants(statement)):
            continue
        parameters, references, declared = [], [], set()
        for parameter in declarator.child_by_field_name("parameters").named_children:
            if parameter.type == "comment":
                continue
            name = parameter.child_by_field_name("declarator")
            reference = name is not None and name.type == "reference_declarator"
            while name is not None and name.type in ("pointer_declarator", "reference_declarator"):
                name = name.child_by_field_name("declarator") or name.named_children[-1]
            if parameter.type != "parameter_declaration" or name is None or name.type != "identifier" or \
                    "&" in view.text(parameter) and not (reference and void):
                parameters = None
                break
            parameters.append(view.text(parameter))
            references.append(view.text(name) if reference else None)
            declared.add(view.text(name))
        if parameters is None:
            continue
        for node in view.descendants(body, "init_declarator", "declaration", "for_statement"):
            for target in node.children_by_field_name("declarator"):      # `float a, b;`: each
                while target is not None and target.type != "identifier":
                    target = target.child_by_field_name("declarator")
                if target is not None:
                    declared.add(view.text(target))
        # On one line: comments and `#pragma unroll` (a hint) dropped, so the kernel's lines stay where they were.
        dropped = [(n.start_byte, n.end_byte) for n in view.descendants(body, "comment", "preproc_call")]
        text = "".join(view.source[start:end].decode() for start, end in
                       _gaps(statements[0].start_byte, last.end_byte if void else last.start_byte, dropped))
        helpers[view.text(declarator.child_by_field_name("declarator"))] = _LoopHelper(
            view.text(declarator.child_by_field_name("declarator")), parameters, references, declared,
            " ".join(text.split()), view.text(returns), None if void else view.text(last.named_children[0]), types)
    return helpers


def _gaps(start: int, end: int, dropped: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The byte ranges of [start, end) outside the (sorted, disjoint) dropped ranges."""
    kept, cursor = [], start
    for low, high in sorted(dropped):
        if low >= end:
            break
        kept.append((cursor, max(cursor, low)))
        cursor = max(cursor, high)
    return kept + [(cursor, end)]


def _statement_of(call: Node) -> Node | None:
    """The declaration or expression statement `call` is evaluated by, where it is evaluated exactly once each time
    that statement runs (not in the arm of a `?:`, `&&` or `||`, nor in a loop's header); None otherwise."""
    node = call
    while node.parent is not None and node.parent.type not in ("declaration", "expression_statement"):
        parent = node.parent
        if parent.type in ("conditional_expression",) and parent.child_by_field_name("condition") != node or \
                parent.type == "binary_expression" and parent.child_by_field_name("operator").type in ("&&", "||") \
                and parent.child_by_field_name("right") == node or \
                parent.type in ("for_statement", "while_statement", "do_statement", "if_statement",
                                "compound_statement", "lambda_expression"):
            return None
        node = parent
    statement = node.parent
    if statement is None or statement.parent is None or statement.parent.type == "for_statement" and \
            statement.parent.child_by_field_name("initializer") == statement or \
            len([n for n in statement.named_children if n.type == "init_declarator"]) > 1:
        return None
    return statement


def _rotated_pointers(view: KernelView) -> list[tuple[int, int, str]]:
    """Row pointers rotated down a column in a loop's body (`north = centre; centre = south; south += nx;`, each
    statement of the body's own, in that order), declared before the loop one step apart (`centre = north + nx`,
    `south = centre + nx`), the step assigned nowhere in the loop and the pointers by nothing else: each pointer
    advanced by the step instead (`north += nx; centre += nx; south += nx;`). Each then holds at every point of the
    body what it held before, one step past the last: by induction, the one before it in the chain plus the step.
    One chain a round."""
    for loop in view.descendants(view.body, "for_statement", "while_statement"):
        body = loop.child_by_field_name("body")
        if body is None or body.type != "compound_statement":
            continue
        statements = [n for n in body.named_children if n.type != "comment"]
        declared = _pointer_values(view, loop)
        for start in range(len(statements)):
            chain = _rotation(view, statements[start:], declared)
            if chain is None:
                continue
            names, step, replaced = chain
            assigned = [n for n in view.descendants(body, "assignment_expression", "update_expression")
                        if any(assigns(view, n, name) for name in names)]
            if len(assigned) != len(names) or any(assigns(view, n, name) for sibling in _before(loop)
                                                  for n in view.descendants(sibling) for name in names) or \
                    any(assigns(view, n, view.text(token)) for n in view.descendants(body)
                        for token in view.descendants(step, "identifier")):
                continue
            return [_in_place(view, statement.start_byte, statement.end_byte, f"{name} += {view.text(step)};")
                    for statement, name in zip(replaced, names)]
    return []


def _pointer_values(view: KernelView, loop: Node) -> dict[str, str]:
    """The pointers declared in the loop's block before it, each with its value's text."""
    values = {}
    for sibling in _before(loop):
        if sibling.type != "declaration":
            continue
        for declarator in sibling.named_children:
            target = declarator.child_by_field_name("declarator") if declarator.type == "init_declarator" else None
            if target is not None and target.type == "pointer_declarator":
                values[view.text(target.child_by_field_name("declarator"))] = \
                    " ".join(view.text(declarator.child_by_field_name("value")).split())
    return values


def _rotation(view: KernelView, statements: list[Node], declared: dict[str, str]) \
        -> tuple[list[str], Node, list[Node]] | None:
    """The chain `a = b; b = c; ... c += d;` the statements start with, where each pointer's declared value is the
    one before it plus d: its pointers in order, d, and the chain's statements; None otherwise."""
    names: list[str] = []
    for position, statement in enumerate(statements):
        expression = statement.named_children[0] if statement.type == "expression_statement" and \
            statement.named_children else None
        if expression is None or expression.type != "assignment_expression" or \
                expression.child_by_field_name("left").type != "identifier":
            return None
        left, right = view.text(expression.child_by_field_name("left")), expression.child_by_field_name("right")
        if view.text(expression.child_by_field_name("operator")) == "+=" and names and left == names[-1]:
            step = " ".join(view.text(right).split())
            if len(names) < 2 or not all(declared.get(after) == f"{before} + {step}"
                                         for before, after in zip(names, names[1:])):
                return None
            return names[:-1] + [left], right, statements[:position + 1]
        if view.text(expression.child_by_field_name("operator")) != "=" or right.type != "identifier" or \
                left not in declared or (names and left != names[-1]):
            return None
        names += [left, view.text(right)] if not names else [view.text(right)]
    return None


def _chosen_pointers(view: KernelView) -> list[tuple[int, int, str]]:
    """The module docstring's pointer chosen by an `if` between two parameters. One a round."""
    parameters = {param.name for param in view.kernel.params if param.is_pointer}
    for declaration in view.descendants(view.body, "declaration"):
        declarator = declaration.child_by_field_name("declarator")
        if len(declaration.named_children) != 2 or declarator is None or declarator.type != "pointer_declarator" or \
                declarator.child_by_field_name("declarator").type != "identifier":
            continue
        pointer = view.text(declarator.child_by_field_name("declarator"))
        later = _after(declaration)
        if not later or later[0].type != "if_statement":
            continue
        branch, uses = later[0], later[1:]
        alternative = branch.child_by_field_name("alternative")
        arms = [_pointer_offset(view, arm, pointer, parameters) for arm in
                (branch.child_by_field_name("consequence"),
                 alternative.named_children[-1] if alternative is not None and alternative.named_children else None)]
        if None in arms:
            continue
        clause = branch.child_by_field_name("condition")
        condition = view.text(clause.named_children[0] if clause.type == "condition_clause" else clause)
        read = {view.text(n) for node in (branch.child_by_field_name("condition"), *(a[2] for a in arms))
                for n in view.descendants(node, "identifier")}
        nodes = [n for use in uses for n in view.descendants(use)]
        if any(assigns(view, n, name) for n in nodes for name in read | {pointer}):
            continue
        mentions = [n for n in nodes if n.type == "identifier" and view.text(n) == pointer]
        accesses = {access.start_byte: (access, index) for n in mentions
                    if (found := _element_through(view, n)) is not None for access, index in [found]}
        subscripts = [access for access, _ in accesses.values()]
        if len(subscripts) != len(mentions) or any(
                a is not b and a.start_byte <= b.start_byte and b.end_byte <= a.end_byte
                for a in subscripts for b in subscripts) or \
                any(n.parent.type in ("update_expression", "pointer_expression") for n in subscripts):
            continue      # a subscript in another's index, incremented in place or its address taken
        (first, first_offset, _), (second, second_offset, _) = arms
        replacements = []
        for subscript, index in accesses.values():
            chosen = (f"{first}[({first_offset}) + ({index})]", f"{second}[({second_offset}) + ({index})]")
            statement = subscript.parent.parent if subscript.parent.type == "assignment_expression" and \
                subscript.parent.child_by_field_name("left") == subscript else None
            if statement is not None and statement.type == "expression_statement":
                assignment = subscript.parent
                rest = view.source[assignment.child_by_field_name("left").end_byte:statement.end_byte].decode()
                if any(other.start_byte > statement.start_byte and other.end_byte <= statement.end_byte
                       for other in subscripts if other is not subscript):
                    break         # the written value reads the pointer too: its reads would overlap this rewrite
                replacements.append(_in_place(view, statement.start_byte, statement.end_byte,
                                              f"if ({condition}) {chosen[0]}{rest} else {chosen[1]}{rest}"))
            elif statement is None:
                replacements.append((subscript.start_byte, subscript.end_byte,
                                     f"(({condition}) ? {chosen[0]} : {chosen[1]})"))
            else:
                break
        else:
            return replacements + [_in_place(view, declaration.start_byte, declaration.end_byte, ""),
                                   _in_place(view, branch.start_byte, branch.end_byte, "")]
    return []


def _element_through(view: KernelView, pointer: Node) -> tuple[Node, str] | None:
    """(the access, its index's text) of a pointer's name read as an element: `p[e]`, `*(p + e)`, `*(e + p)`, `*p`."""
    parent = pointer.parent
    if parent.type == "subscript_expression" and parent.child_by_field_name("argument") == pointer:
        return parent, view.text(parent.child_by_field_name("indices")).strip()[1:-1]
    index, access = "0", parent
    if parent.type == "binary_expression" and view.text(parent.child_by_field_name("operator")) == "+":
        index = view.text(next(side for side in (parent.child_by_field_name("left"),
                                                  parent.child_by_field_name("right")) if side != pointer))
        access = parent.parent
        while access.type == "parenthesized_expression":
            access = access.parent
    if access.type == "pointer_expression" and access.child_by_field_name("operator").type == "*":
        return access, index
    return None


def _pointer_offset(view: KernelView, arm: Node | None, pointer: str, parameters: set[str]) \
        -> tuple[str, str, Node] | None:
    """(parameter, offset, the offset's node) of an arm that is the one statement `pointer = parameter + offset;`
    (braced or not; `offset + parameter` too)."""
    while arm is not None and arm.type == "compound_statement" and len(arm.named_children) == 1:
        arm = arm.named_children[0]
    if arm is None or arm.type != "expression_statement" or not arm.named_children:
        return None
    assignment = arm.named_children[0]
    if assignment.type != "assignment_expression" or assignment.child_by_field_name("operator").type != "=" or \
            view.text(assignment.child_by_field_name("left")) != pointer:
        return None
    value = bare(assignment.child_by_field_name("right"))
    if value.type != "binary_expression" or view.text(value.child_by_field_name("operator")) != "+":
        return None
    left, right = value.child_by_field_name("left"), value.child_by_field_name("right")
    for base, offset in ((left, right), (right, left)):
        if base.type == "identifier" and view.text(base) in parameters:
            return view.text(base), view.text(offset), offset
    return None
